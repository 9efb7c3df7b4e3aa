-- Accounts (issue 3): single-use e-mail tokens (verification 24 h, password reset 1 h) stored hashed,
-- the outbox of every e-mail the app sends, and per-e-mail/per-IP request log for resend and
-- forgot-password rate limits (kept in PostgreSQL so every process agrees).

create table email_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  purpose text not null check (purpose in ('verify', 'reset')),
  token_hash text not null unique,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index email_tokens_user_idx on email_tokens(user_id, purpose);

create table email_outbox (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references users(id) on delete set null,
  kind text not null,
  to_address text not null,
  subject text not null,
  html text not null,
  text text not null,
  status text not null default 'queued' check (status in ('queued', 'sent', 'failed', 'skipped')),
  attempts integer not null default 0,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index email_outbox_user_idx on email_outbox(user_id, created_at desc);
create index email_outbox_status_idx on email_outbox(status, created_at desc);

create table auth_email_requests (
  id bigserial primary key,
  kind text not null check (kind in ('resend', 'forgot')),
  email text not null,
  ip text,
  created_at timestamptz not null default now()
);
create index auth_email_requests_email_idx on auth_email_requests(kind, email, created_at desc);
create index auth_email_requests_ip_idx on auth_email_requests(kind, ip, created_at desc);
