-- Issue 22: manual market orders (POST /api/orders/market, PRODUCT.md §7 Orders) go through the same
-- order intents and books as the AI's; who opened a trade is kept apart so history and statistics can
-- tell the AI's trades from the user's. 'ai': opened by the bot's tick; 'manual': a manual order of
-- the app, or a trade opened outside it (no order intent: until now recorded with strategy 'manual').
-- order_intents.request: what a manual order asked for and what was defaulted (the stop loss), so the
-- same idempotency key answers the first result again.
alter table order_intents add column origin text not null default 'ai' check (origin in ('ai', 'manual')),
  add column request jsonb;
alter table trades add column origin text not null default 'ai' check (origin in ('ai', 'manual'));
update trades set origin = 'manual' where strategy = 'manual';
