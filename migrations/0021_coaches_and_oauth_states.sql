-- Issue 24 (docs/decisions/123, 124).
-- A student's coach: a coach adjusts the wallets of their own students only. Set by an admin
-- (PUT /api/users/:id/coach); cleared when the coach is deleted.
ALTER TABLE `users` ADD `coach_id` integer REFERENCES `users`(`id`) ON DELETE SET NULL;
CREATE INDEX `users_coach_idx` ON `users` (`coach_id`);

-- OAuth states of the Facebook login: minted for one user, used once, expiring. Only the
-- SHA-256 of the state is stored.
CREATE TABLE `oauth_states` (
  `state_hash` text PRIMARY KEY NOT NULL,
  `user_id` integer NOT NULL REFERENCES `users`(`id`) ON DELETE CASCADE,
  `provider` text NOT NULL,
  `expires_at` integer NOT NULL,
  `created_at` integer NOT NULL
);
CREATE INDEX `oauth_states_user_idx` ON `oauth_states` (`user_id`);
