-- Issue 11 (web push): the browsers' push subscriptions and the consumed one-tap action tokens.
-- A subscription belongs to one user: an endpoint subscribed again by another user moves to that
-- user (the endpoint is unique). `topics` are the device's own topics (null = every topic); the
-- user's switches in /settings live in users.preferences.pushTopics (app/services/push/).
create table push_subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  endpoint text not null unique,
  p256dh text not null,
  auth text not null,
  topics text[],
  client jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_success_at timestamptz,
  last_failure_at timestamptz,
  last_failure_status int,
  failure_count int not null default 0
);
create index push_subscriptions_user_idx on push_subscriptions (user_id);

-- One row per action token used ("Pausar IA", "Fechar tudo" from a push): the primary key makes a
-- token single-use (the insert that consumes it is the atomic check). Rows past `expires_at` are
-- useless (an expired token is refused before the insert) and are pruned.
create table push_action_tokens_used (
  jti uuid primary key,
  user_id uuid not null references users(id) on delete cascade,
  action text not null,
  expires_at timestamptz not null,
  used_at timestamptz not null default now()
);
create index push_action_tokens_used_expires_idx on push_action_tokens_used (expires_at);
