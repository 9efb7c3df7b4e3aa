-- Issue 13 (ADR 0027): when a sync (the broker's transactions since the stored cursor) last confirmed
-- the stored summary and open trades of account_states. A steady bot tick works from the stored state
-- without asking the broker while this is within its sync window; any order, AI close or bot stop
-- syncs first. A read from the broker sets it; a tick that synced and found nothing moves it.
alter table account_states add column synced_at timestamptz;
