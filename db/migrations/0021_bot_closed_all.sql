-- Issue 22 "Graduated kill switch": 'Fechar tudo e pausar' stops the loop, then closes every open
-- trade. It records when on the bot, so that while the loop stays off not even a forced tick
-- (run-once) opens a trade again; the user's next start (last_started_at later than this) ends it.
-- 'Parar novas entradas' needs no column: it is manage-only with manage_only_reason = 'user'
-- (migration 0012).
alter table bots add column closed_all_at timestamptz;
