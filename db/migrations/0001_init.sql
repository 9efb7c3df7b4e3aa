-- Initial schema. Money, prices and units are numeric; times are timestamptz (UTC).
-- Every user-owned table carries user_id and is always queried through it (DESIGN.md §6).

create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null unique check (email = lower(btrim(email))),
  first_name text not null default '',
  last_name text not null default '',
  password_hash text not null,
  role text not null default 'user' check (role in ('user', 'admin')),
  is_active boolean not null default true,
  preferences jsonb not null default '{"language":"pt","currency":"BRL","timezone":"America/Sao_Paulo"}',
  subscription_status text not null default 'inactive',
  stripe_customer_id text,
  stripe_subscription_id text,
  email_verified_at timestamptz,
  terms_accepted_at timestamptz,
  terms_version text,
  created_at timestamptz not null default now(),
  last_login_at timestamptz
);

create table sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  token_hash text not null unique,
  remember boolean not null default true,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  user_agent text,
  ip text
);
create index sessions_user_idx on sessions(user_id);

create table plans (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  description text not null default '',
  price_cents integer not null check (price_cents >= 0),
  currency text not null default 'BRL',
  duration_days integer not null default 30 check (duration_days >= 1),
  interval text not null default 'month',
  interval_count integer not null default 1,
  features jsonb not null default '[]',
  is_highlighted boolean not null default false,
  is_active boolean not null default true,
  stripe_price_id text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now()
);

create table licenses (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  key text not null unique,
  kind text not null check (kind in ('trial', 'paid', 'manual')),
  plan_id uuid references plans(id) on delete set null,
  plan_name text,
  start_date timestamptz not null default now(),
  end_date timestamptz not null,
  is_active boolean not null default true,
  created_at timestamptz not null default now()
);
create index licenses_user_idx on licenses(user_id, end_date desc);

create table broker_connections (
  user_id uuid primary key references users(id) on delete cascade,
  environment text not null check (environment in ('practice', 'live')),
  account_id text not null,
  account_alias text,
  account_currency text,
  token_encrypted text not null,
  last_transaction_id text,
  status text not null default 'connected' check (status in ('connected', 'error')),
  last_error text,
  connected_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table trading_settings (
  user_id uuid primary key references users(id) on delete cascade,
  settings jsonb not null,
  updated_at timestamptz not null default now()
);

create table bots (
  user_id uuid primary key references users(id) on delete cascade,
  is_active boolean not null default false,
  interval_sec integer not null default 60 check (interval_sec between 5 and 3600),
  last_started_at timestamptz,
  last_stopped_at timestamptz,
  last_stop_reason text,
  last_tick_at timestamptz,
  last_tick_error text,
  peak_balance numeric,
  day_start date,
  day_start_balance numeric,
  updated_at timestamptz not null default now()
);

create table decisions (
  id bigserial primary key,
  user_id uuid not null references users(id) on delete cascade,
  decision_id text not null,
  instrument text not null,
  action text not null,
  side text,
  confidence numeric,
  timeframe text,
  reason text not null,
  risk_code text,
  risk_reason text,
  executed boolean not null default false,
  payload jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index decisions_user_idx on decisions(user_id, created_at desc);

-- One row per order we intend to send: written before the HTTP call, so a crash between the
-- broker fill and our bookkeeping can never lead to a second order for the same decision.
create table order_intents (
  user_id uuid not null references users(id) on delete cascade,
  client_order_id text not null,
  decision_id text not null,
  account_id text not null,
  instrument text not null,
  units numeric not null,
  status text not null default 'pending' check (status in ('pending', 'filled', 'cancelled', 'rejected', 'failed')),
  detail text,
  broker_trade_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (user_id, client_order_id)
);

create table trades (
  id bigserial primary key,
  user_id uuid not null references users(id) on delete cascade,
  account_id text not null,
  environment text not null,
  broker_trade_id text not null,
  client_order_id text,
  decision_id text,
  instrument text not null,
  side text not null check (side in ('buy', 'sell')),
  units numeric not null,
  open_price numeric not null,
  close_price numeric,
  stop_loss numeric,
  take_profit numeric,
  realized_pl numeric,
  financing numeric,
  status text not null default 'open' check (status in ('open', 'closed')),
  result text check (result in ('WIN', 'LOSS', 'BE')),
  close_reason text,
  open_time timestamptz not null,
  close_time timestamptz,
  ai_timeframe text,
  ai_confidence numeric,
  ai_reason text,
  strategy text,
  trading_style text,
  created_at timestamptz not null default now(),
  unique (user_id, account_id, broker_trade_id)
);
create index trades_user_status_idx on trades(user_id, status, close_time desc);

create table notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  type text not null check (type in ('success', 'warning', 'error', 'limit', 'trading', 'info')),
  title text not null,
  message text not null,
  read boolean not null default false,
  metadata jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index notifications_user_idx on notifications(user_id, created_at desc);

-- Shared market data: candles per (environment, instrument, granularity), fetched once per closed candle.
create table market_candles (
  environment text not null,
  instrument text not null,
  granularity text not null,
  time timestamptz not null,
  open numeric not null,
  high numeric not null,
  low numeric not null,
  close numeric not null,
  volume integer not null,
  primary key (environment, instrument, granularity, time)
);

create table system_settings (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null default now()
);
