-- The task a booking belongs to (interchange.md §6, an entry's `taskID`): set by an import from
-- MS Project or GanttProject, read by the MS Project export to write assignments. Not on the
-- wire. Removing the task removes the link: the foreign key's action sets the column to NULL
-- at once (a referential action is never deferred), exactly as the server's data drops it.
ALTER TABLE entries ADD COLUMN task_id text;
ALTER TABLE entries ADD CONSTRAINT entries_task_exists FOREIGN KEY (plan_id, task_id)
    REFERENCES tasks (plan_id, id) ON DELETE SET NULL (task_id) DEFERRABLE INITIALLY DEFERRED;
-- The foreign key's action looks entries up by task.
CREATE INDEX entries_by_task ON entries (plan_id, task_id) WHERE task_id IS NOT NULL;
