-- Issue 22 (broker-rule check at connect, core/broker/account-rules.ts): what the AI will and will
-- not do on the user's account (hedging or FIFO, currency, per instrument the broker's minimum size
-- against the units the risk gives, margin rate), checked at connect and again on each sync window.
-- Stored next to the account state it was read from (one row per user): the jsonb carries the
-- environment and account it is about, so a row of another account is ignored by its readers.
alter table account_states add column account_rules jsonb, add column account_rules_checked_at timestamptz;
