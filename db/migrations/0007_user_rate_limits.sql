-- Issue 8 item 10: per-user limits on costly on-demand actions (POST /api/notifications/test,
-- POST /api/trades/ai/loop/run-once), shared by every process. One row per user and action: the
-- start of the current fixed window and the calls counted in it (app/services/platform/user-rate-limit.server.ts).
create table user_rate_limits (
  user_id uuid not null references users(id) on delete cascade,
  action text not null,
  window_start timestamptz not null default now(),
  hits integer not null default 0,
  primary key (user_id, action)
);
