-- Issue 12 (the user's own backtest, ADR 0019): one row per backtest run of a user, run by the
-- `backtest-run` pg-boss job. `params` is what was asked and the settings snapshot used
-- (instruments, source 'shipped'|'broker', from, to, settings, initialBalance, accountCurrency,
-- seeds); `result` the figures shown (stats, trades with their reason messages, equity and
-- drawdown points, the random baseline's band and percentile). At most one queued/running run per
-- user and the last 20 runs are kept (app/services/backtest/runs.server.ts).
create table backtest_runs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  progress smallint not null default 0 check (progress between 0 and 100),
  params jsonb not null,
  result jsonb,
  error text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now(),
  duration_ms integer
);
create index backtest_runs_user_created_idx on backtest_runs (user_id, created_at desc);
-- Runs still to finish, for the stale-run sweep.
create index backtest_runs_active_idx on backtest_runs (status) where status in ('queued', 'running');
