-- Issue 24 (availability under abuse): a streak of failed logins locked the whole account, so anyone who
-- knew an e-mail kept its owner out (the right password got 429) with about 4 requests an hour. The lock
-- now belongs to the pair (e-mail, source address): `source` is the client address (IPv6 by /64), or
-- '*' for the account-wide row, which only counts attempts and earns a progressive delay, never a lock
-- (app/services/identity/login-throttle.server.ts). Streaks are short-lived: the old rows are dropped.
delete from login_throttle;
alter table login_throttle add column source text not null;
alter table login_throttle drop constraint login_throttle_pkey;
alter table login_throttle add primary key (email, source);
