-- Issue 8 item 5: the last reconciled broker transaction id of an account outlives its connection.
-- Disconnecting (or connecting another account) keeps the connection's id here; connecting the
-- same account again (same user, environment and account) replays the broker's transactions from
-- it, so a trade closed while disconnected still reaches our history and the risk counters.
create table broker_cursors (
  user_id uuid not null references users(id) on delete cascade,
  environment text not null check (environment in ('practice', 'live')),
  account_id text not null,
  last_transaction_id text not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, environment, account_id)
);
