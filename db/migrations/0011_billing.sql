-- Issue 9 (billing): Stripe webhooks, paid licences, the licence-change log.
-- stripe_events: every verified event once (id is Stripe's evt_…); a duplicate delivery hits the
-- primary key and changes nothing. processed_at is set in the same transaction as the event's effect.
create table stripe_events (
  id text primary key,
  type text not null,
  stripe_created_at timestamptz not null,
  livemode boolean not null default false,
  customer_id text,
  subscription_id text,
  payload jsonb not null,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  attempts integer not null default 0,
  last_error text
);
create index stripe_events_pending_idx on stripe_events (received_at) where processed_at is null;
create index stripe_events_customer_idx on stripe_events (customer_id, stripe_created_at desc);

-- One Stripe customer per user, one paid licence per Stripe subscription.
create unique index users_stripe_customer_key on users (stripe_customer_id) where stripe_customer_id is not null;
alter table licenses add column stripe_subscription_id text;
create unique index licenses_stripe_subscription_key on licenses (stripe_subscription_id) where stripe_subscription_id is not null;

-- The user's current Stripe subscription as last read from Stripe (plan, price, period end), so the
-- status API and the billing page never call Stripe per page view; and when it was read (the daily
-- sweep starts with the oldest).
alter table users add column subscription_details jsonb, add column subscription_synced_at timestamptz;

-- Every change of a licence's validity or end date, and why (append-only; support and the audit read it).
create table license_changes (
  id bigserial primary key,
  license_id uuid not null references licenses(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  change text not null check (change in ('created', 'extended', 'shortened', 'ended', 'reactivated')),
  end_before timestamptz,
  end_after timestamptz not null,
  source text not null,
  stripe_event_id text,
  created_at timestamptz not null default now()
);
create index license_changes_user_idx on license_changes (user_id, created_at desc);
