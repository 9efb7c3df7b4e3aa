-- Issue 8 item 1: per-account backoff for failed logins, shared by every process. One row per
-- e-mail tried (known or not, so the answer never reveals an account): failed attempts in the
-- current streak, the last one, and until when further attempts are refused. A successful login
-- deletes the row; a streak older than 24 h starts over.
create table login_throttle (
  email text primary key,
  failures integer not null default 0,
  last_attempt_at timestamptz not null default now(),
  locked_until timestamptz
);
create index login_throttle_last_attempt_idx on login_throttle(last_attempt_at);
