-- Issue 13 (ADR 0025): what a bot tick knows of its broker account without asking the broker.
-- One row per user (a user has one connection): the last account summary and open trades read
-- from the broker, consistent at `last_transaction_id` (the summary's), and when they were read;
-- a tick reuses them while the broker's transactions since that id are none (valued at current
-- prices, core/trading/account.ts) and the read is recent. Also the instruments the account offers
-- (names, precision, margin rates), read at most every few hours. Rows of another account than the
-- user's current connection (environment + account_id) are ignored and overwritten.
create table account_states (
  user_id uuid primary key references users(id) on delete cascade,
  environment text not null check (environment in ('practice', 'live')),
  account_id text not null,
  summary jsonb,
  open_trades jsonb,
  last_transaction_id text,
  read_at timestamptz,
  instruments jsonb,
  instruments_read_at timestamptz,
  updated_at timestamptz not null default now()
);
