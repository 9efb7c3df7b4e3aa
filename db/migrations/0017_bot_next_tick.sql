-- Issue 13 (ADR 0024): the tick scheduler claims due bots straight from this table. `next_tick_at`
-- is the bot's next due slot: a claim moves it one interval past the slot it claims (a fixed
-- schedule, never in the past), so a bot claimed by a process that then dies is due again within
-- one interval; starting a bot makes it due now, a failed tick sooner (app/services/trading/tick-scheduler.server.ts).
-- A new row is due at once (the default).
alter table bots add column next_tick_at timestamptz not null default now();
-- The claim's scan: active bots by due time.
create index bots_due_idx on bots (next_tick_at) where is_active;
