-- Issue 9 "Lapsed licence: manage-only": when the licence lapses while the AI is on, the bot stays on
-- but opens no new trades; its open trades keep their stop loss / take profit and are still reconciled
-- and managed (max hold, weekend flat). The tick sets these when it enters the mode (and notifies once)
-- and clears them when the licence is valid again (and notifies once). Read only while is_active:
-- a stopped bot is never in manage-only, whatever is left here.
alter table bots
  add column manage_only_since timestamptz,
  add column manage_only_reason text,
  add constraint bots_manage_only_check check ((manage_only_since is null) = (manage_only_reason is null));
