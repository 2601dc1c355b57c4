ALTER TABLE `check_results` ADD `not_checked_cause` text;--> statement-breakpoint
ALTER TABLE `check_results` ADD `no_fallback` text;--> statement-breakpoint
ALTER TABLE `check_results` ADD `no_fallback_code` integer;--> statement-breakpoint
ALTER TABLE `cross_reads` ADD `explained` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `cross_reads` ADD `explanation` text;--> statement-breakpoint
ALTER TABLE `cross_reads` ADD `explanation_code` integer;--> statement-breakpoint
CREATE INDEX `cross_reads_server_idx` ON `cross_reads` (`server_id`,`day`);--> statement-breakpoint
ALTER TABLE `runs` ADD `overall` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `overall_cause` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `overall` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `overall_cause` text;--> statement-breakpoint
CREATE INDEX `servers_overall_idx` ON `servers` (`overall`,`name`);--> statement-breakpoint
CREATE INDEX `servers_probed_idx` ON `servers` (`last_probed_at`,`name`);--> statement-breakpoint
-- Backfill: the overall state of every server already probed, from its five stored states (architecture.md §2, as
-- lib/checks/overall.ts decides it). The Not checked kinds are written by each server's next probe.
UPDATE `servers` SET `overall` = CASE
  WHEN 'failed' IN (`state_handshake`, `state_protocol_version`, `state_tools_list`, `state_error_taxonomy`, `state_auth_metadata`) THEN 'failed'
  WHEN 'observed_risk' IN (`state_handshake`, `state_protocol_version`, `state_tools_list`, `state_error_taxonomy`, `state_auth_metadata`) THEN 'observed_risk'
  WHEN `state_handshake` = 'verified' AND `state_tools_list` = 'verified' THEN 'verified'
  WHEN coalesce(`state_handshake`, `state_protocol_version`, `state_tools_list`, `state_error_taxonomy`, `state_auth_metadata`) IS NULL THEN NULL
  ELSE 'not_checked'
END;
