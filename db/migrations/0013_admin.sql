-- Issue 10 (admin panel): the audit log of every admin write, and soft-deleted users.
-- admin_audit_log is append-only: a trigger refuses UPDATE and DELETE. Secrets never reach it
-- (app/services/admin/audit.server.ts redacts them before the insert).
create table admin_audit_log (
  id bigserial primary key,
  admin_id uuid references users(id) on delete set null,
  admin_email text not null,
  action text not null,
  target_type text not null,
  target_id text,
  before jsonb,
  after jsonb,
  ip text,
  created_at timestamptz not null default now()
);
create index admin_audit_log_created_idx on admin_audit_log (created_at desc, id desc);
create index admin_audit_log_target_idx on admin_audit_log (target_type, target_id, created_at desc);
create index admin_audit_log_admin_idx on admin_audit_log (admin_id, created_at desc);

create function admin_audit_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'admin_audit_log is append-only';
end $$;
create trigger admin_audit_log_no_update before update or delete on admin_audit_log
  for each row execute function admin_audit_log_append_only();

-- A deleted user keeps their books (trades, decisions) for the audit: the row stays, marked deleted,
-- inactive, with the e-mail freed for a new registration (see app/services/admin/users.server.ts).
alter table users add column deleted_at timestamptz, add column deleted_email text;
