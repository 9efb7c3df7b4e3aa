-- Issue 8 item 10: two app users could connect the same broker account, and both bots would trade
-- it (each counting only its own trades against the risk limits). One app user per broker account.
create unique index broker_connections_account_key on broker_connections (environment, account_id);
