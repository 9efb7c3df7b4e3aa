-- Issue 21 "Drawdown stop that means it": a max-drawdown stop keeps the bot stopped until the user
-- re-arms it (which resets the high-water mark to the NAV of the moment).
-- `peak_at`: when the high-water mark (`peak_balance`) was last raised, on the broker's clock (the
--   trades behind a drawdown are those closed since then); null until a tick raises it.
-- `drawdown_stop`: set by a max-drawdown stop (core/risk/drawdown.ts DrawdownStop: the drawdown, the
--   mark, the NAV and the trades behind it), cleared by the re-arm; while set a plain start is refused.
alter table bots
  add column peak_at timestamptz,
  add column drawdown_stop jsonb;
-- Bots already stopped by the drawdown rule need the re-arm too (figures unknown: the screens read the current ones).
update bots set drawdown_stop = jsonb_build_object('at', last_stopped_at)
  where not is_active and last_stop_reason = 'max_drawdown';
