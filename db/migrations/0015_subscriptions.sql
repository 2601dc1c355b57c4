CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` text NOT NULL,
	`subscription_id` integer NOT NULL,
	`kind` text NOT NULL,
	`event` text,
	`facts` text NOT NULL,
	`created_at` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`due_at` text,
	`next_try_at` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`folded` integer DEFAULT 0 NOT NULL,
	`folded_into` integer,
	`done_at` text,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_message_idx` ON `outbox` (`message_id`);--> statement-breakpoint
CREATE INDEX `outbox_state_idx` ON `outbox` (`state`,`next_try_at`);--> statement-breakpoint
CREATE INDEX `outbox_subscription_idx` ON `outbox` (`subscription_id`,`state`);--> statement-breakpoint
CREATE TABLE `subscribe_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `subscribe_attempts_idx` ON `subscribe_attempts` (`scope`,`key`,`at`);--> statement-breakpoint
CREATE TABLE `subscribers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`address` text NOT NULL,
	`flavor` text,
	`lang` text DEFAULT 'en' NOT NULL,
	`created_at` text NOT NULL,
	`failing_since` text,
	`paused_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscribers_address_idx` ON `subscribers` (`channel`,`address`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscriber_id` integer NOT NULL,
	`server_id` integer NOT NULL,
	`token` text NOT NULL,
	`events` text NOT NULL,
	`secret` text,
	`created_at` text NOT NULL,
	`confirmed_at` text,
	`last_sent_at` text,
	FOREIGN KEY (`subscriber_id`) REFERENCES `subscribers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_token_idx` ON `subscriptions` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_pair_idx` ON `subscriptions` (`subscriber_id`,`server_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_server_idx` ON `subscriptions` (`server_id`,`confirmed_at`);--> statement-breakpoint
CREATE INDEX `subscriptions_unconfirmed_idx` ON `subscriptions` (`confirmed_at`,`created_at`);