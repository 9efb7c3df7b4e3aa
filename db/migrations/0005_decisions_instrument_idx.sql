-- Issue 7: the tick reads each instrument's previous decision in one query (distinct on instrument).
create index decisions_user_instrument_idx on decisions(user_id, instrument, id desc);
