-- Issue 9 (plans): the `plans` table of 0001 gets the rest of PRODUCT.md §3 Plan and the Stripe link.
-- Features become text[] (a list of strings, never another JSON shape); the interval is month|year,
-- prices are whole cents, currencies ISO codes; stripe_product_id joins stripe_price_id (nullable
-- until the plan is synced to Stripe); updated_at records admin edits. No code wrote plans before
-- this migration, so the conversions below only normalise hand-made rows.
alter table plans add column features_list text[] not null default '{}';
update plans set features_list = array(select jsonb_array_elements_text(features))
  where jsonb_typeof(features) = 'array';
alter table plans drop column features;
alter table plans rename column features_list to features;

update plans set currency = upper(currency), interval = lower(interval);
alter table plans
  add column stripe_product_id text,
  add column updated_at timestamptz not null default now(),
  add constraint plans_name_check check (length(btrim(name)) > 0),
  add constraint plans_currency_check check (currency ~ '^[A-Z]{3}$'),
  add constraint plans_interval_check check (interval in ('month', 'year')),
  add constraint plans_interval_count_check check (interval_count >= 1);

create unique index plans_stripe_price_key on plans (stripe_price_id) where stripe_price_id is not null;
