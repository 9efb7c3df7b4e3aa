-- The broker's clock relative to ours, per connection: ~0 on real OANDA; in sim mode the simulator
-- replays 2026 data on its own clock. Windows such as "the last 30 days" are measured on it, so a
-- simulated account's trades show up in its own recent history.
alter table broker_connections add column market_clock_offset_ms bigint not null default 0;
