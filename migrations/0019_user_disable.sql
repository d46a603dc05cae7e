-- Users can be disabled (issue 17, docs/decisions/116): set, the user cannot sign in and every
-- token they hold is refused; cleared, they sign in again with the same password.
ALTER TABLE `users` ADD `disabled_at` integer;
