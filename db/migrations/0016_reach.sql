ALTER TABLE `census_days` ADD `reach` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `config_headers` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `reach` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `reach_refusal` text;