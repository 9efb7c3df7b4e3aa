-- Server-made texts are stored as translatable messages (i18next key + parameters, ADR 0007) next to
-- their Portuguese text: the screens render them in the reader's current language, while the text
-- columns keep search, CSV and older rows working.
alter table decisions add column reason_msg jsonb;
alter table trades add column ai_reason_msg jsonb;
alter table notifications add column title_msg jsonb;
alter table notifications add column message_msg jsonb;
alter table bots add column last_tick_error_msg jsonb;
