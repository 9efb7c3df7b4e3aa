-- Issue 11: the economic calendar behind the news blackout (ADR 0018). One row per release,
-- deduplicated by `event_key` (the source's event id when it has one, else time|currency|title);
-- filled by the `calendar-refresh` job from NEWS_CALENDAR_URL or the shipped data/calendar files.
create table calendar_events (
  id bigserial primary key,
  source text not null,
  event_key text not null unique,
  time timestamptz not null,
  currency text not null,
  impact text not null check (impact in ('high', 'medium', 'low', 'non-economic')),
  title text not null,
  actual text,
  forecast text,
  previous text,
  fetched_at timestamptz not null default now()
);
create index calendar_events_time_idx on calendar_events (time);
