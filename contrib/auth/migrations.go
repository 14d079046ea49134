package auth

import "github.com/go-drf/drf/framework/store"

// Migrations create auth_user, django_content_type and the permission
// tables (auth_permission, auth_group, auth_group_permissions,
// auth_user_groups, auth_user_user_permissions) exactly as Django 3.2's
// contenttypes and auth migrations leave them on SQLite and on PostgreSQL.
// They are recorded under Django's names, so a database that Django
// created is recognised and left alone. auth_user came first, alone, as
// "auth 0001_initial"; the permission tables are created by "auth
// 0002_alter_permission_name_max_length", the first name a database
// migrated by earlier versions of this package does not record, in the
// state Django's later auth migrations leave them (their columns' lengths
// are the final ones), and those later migrations change nothing more.
// The default permissions are created by PermissionsMigration.
var Migrations = []store.Migration{
	{App: "auth", Name: "0001_initial", Up: store.ByDialect(store.SQL(
		`CREATE TABLE IF NOT EXISTS "auth_user" (`+
			`"id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, `+
			`"password" varchar(128) NOT NULL, `+
			`"last_login" datetime NULL, `+
			`"is_superuser" bool NOT NULL, `+
			`"username" varchar(150) NOT NULL UNIQUE, `+
			`"last_name" varchar(150) NOT NULL, `+
			`"email" varchar(254) NOT NULL, `+
			`"is_staff" bool NOT NULL, `+
			`"is_active" bool NOT NULL, `+
			`"date_joined" datetime NOT NULL, `+
			`"first_name" varchar(150) NOT NULL)`,
	), store.SQL(
		`CREATE TABLE "auth_user" (`+
			`"id" serial NOT NULL PRIMARY KEY, `+
			`"password" varchar(128) NOT NULL, `+
			`"last_login" timestamp with time zone NULL, `+
			`"is_superuser" boolean NOT NULL, `+
			`"username" varchar(150) NOT NULL UNIQUE, `+
			`"first_name" varchar(150) NOT NULL, `+
			`"last_name" varchar(150) NOT NULL, `+
			`"email" varchar(254) NOT NULL, `+
			`"is_staff" boolean NOT NULL, `+
			`"is_active" boolean NOT NULL, `+
			`"date_joined" timestamp with time zone NOT NULL)`,
		`CREATE INDEX "auth_user_username_6821ab7c_like" ON "auth_user" ("username" varchar_pattern_ops)`,
	))},
	{App: "contenttypes", Name: "0001_initial", Up: store.ByDialect(store.SQL(
		`CREATE TABLE "django_content_type" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, `+
			`"app_label" varchar(100) NOT NULL, "model" varchar(100) NOT NULL)`,
		`CREATE UNIQUE INDEX "django_content_type_app_label_model_76bd3d3b_uniq" ON "django_content_type" ("app_label", "model")`,
	), store.SQL(
		`CREATE TABLE "django_content_type" ("id" serial NOT NULL PRIMARY KEY, `+
			`"app_label" varchar(100) NOT NULL, "model" varchar(100) NOT NULL)`,
		`ALTER TABLE "django_content_type" ADD CONSTRAINT "django_content_type_app_label_model_76bd3d3b_uniq" UNIQUE ("app_label", "model")`,
	))},
	// 0001_initial above creates the table without the name column this
	// one drops.
	{App: "contenttypes", Name: "0002_remove_content_type_name", Up: store.SQL()},
	{App: "auth", Name: "0002_alter_permission_name_max_length", Up: store.ByDialect(store.SQL(
		`CREATE TABLE "auth_permission" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, `+
			`"content_type_id" integer NOT NULL REFERENCES "django_content_type" ("id") DEFERRABLE INITIALLY DEFERRED, `+
			`"codename" varchar(100) NOT NULL, "name" varchar(255) NOT NULL)`,
		`CREATE UNIQUE INDEX "auth_permission_content_type_id_codename_01ab375a_uniq" ON "auth_permission" ("content_type_id", "codename")`,
		`CREATE INDEX "auth_permission_content_type_id_2f476e4b" ON "auth_permission" ("content_type_id")`,
		`CREATE TABLE "auth_group" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "name" varchar(150) NOT NULL UNIQUE)`,
		`CREATE TABLE "auth_group_permissions" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, `+
			`"group_id" integer NOT NULL REFERENCES "auth_group" ("id") DEFERRABLE INITIALLY DEFERRED, `+
			`"permission_id" integer NOT NULL REFERENCES "auth_permission" ("id") DEFERRABLE INITIALLY DEFERRED)`,
		`CREATE UNIQUE INDEX "auth_group_permissions_group_id_permission_id_0cd325b0_uniq" ON "auth_group_permissions" ("group_id", "permission_id")`,
		`CREATE INDEX "auth_group_permissions_group_id_b120cbf9" ON "auth_group_permissions" ("group_id")`,
		`CREATE INDEX "auth_group_permissions_permission_id_84c5c92e" ON "auth_group_permissions" ("permission_id")`,
		`CREATE TABLE "auth_user_groups" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, `+
			`"user_id" integer NOT NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED, `+
			`"group_id" integer NOT NULL REFERENCES "auth_group" ("id") DEFERRABLE INITIALLY DEFERRED)`,
		`CREATE UNIQUE INDEX "auth_user_groups_user_id_group_id_94350c0c_uniq" ON "auth_user_groups" ("user_id", "group_id")`,
		`CREATE INDEX "auth_user_groups_user_id_6a12ed8b" ON "auth_user_groups" ("user_id")`,
		`CREATE INDEX "auth_user_groups_group_id_97559544" ON "auth_user_groups" ("group_id")`,
		`CREATE TABLE "auth_user_user_permissions" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, `+
			`"user_id" integer NOT NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED, `+
			`"permission_id" integer NOT NULL REFERENCES "auth_permission" ("id") DEFERRABLE INITIALLY DEFERRED)`,
		`CREATE UNIQUE INDEX "auth_user_user_permissions_user_id_permission_id_14a6b632_uniq" ON "auth_user_user_permissions" ("user_id", "permission_id")`,
		`CREATE INDEX "auth_user_user_permissions_user_id_a95ead1b" ON "auth_user_user_permissions" ("user_id")`,
		`CREATE INDEX "auth_user_user_permissions_permission_id_1fbb5f2c" ON "auth_user_user_permissions" ("permission_id")`,
	), store.SQL(
		`CREATE TABLE "auth_permission" ("id" serial NOT NULL PRIMARY KEY, "name" varchar(255) NOT NULL, `+
			`"content_type_id" integer NOT NULL, "codename" varchar(100) NOT NULL)`,
		`CREATE TABLE "auth_group" ("id" serial NOT NULL PRIMARY KEY, "name" varchar(150) NOT NULL UNIQUE)`,
		`CREATE TABLE "auth_group_permissions" ("id" serial NOT NULL PRIMARY KEY, "group_id" integer NOT NULL, "permission_id" integer NOT NULL)`,
		`CREATE TABLE "auth_user_groups" ("id" serial NOT NULL PRIMARY KEY, "user_id" integer NOT NULL, "group_id" integer NOT NULL)`,
		`CREATE TABLE "auth_user_user_permissions" ("id" serial NOT NULL PRIMARY KEY, "user_id" integer NOT NULL, "permission_id" integer NOT NULL)`,
		`ALTER TABLE "auth_permission" ADD CONSTRAINT "auth_permission_content_type_id_codename_01ab375a_uniq" UNIQUE ("content_type_id", "codename")`,
		`ALTER TABLE "auth_permission" ADD CONSTRAINT "auth_permission_content_type_id_2f476e4b_fk_django_co" FOREIGN KEY ("content_type_id") REFERENCES "django_content_type" ("id") DEFERRABLE INITIALLY DEFERRED`,
		`CREATE INDEX "auth_permission_content_type_id_2f476e4b" ON "auth_permission" ("content_type_id")`,
		`CREATE INDEX "auth_group_name_a6ea08ec_like" ON "auth_group" ("name" varchar_pattern_ops)`,
		`ALTER TABLE "auth_group_permissions" ADD CONSTRAINT "auth_group_permissions_group_id_permission_id_0cd325b0_uniq" UNIQUE ("group_id", "permission_id")`,
		`ALTER TABLE "auth_group_permissions" ADD CONSTRAINT "auth_group_permissions_group_id_b120cbf9_fk_auth_group_id" FOREIGN KEY ("group_id") REFERENCES "auth_group" ("id") DEFERRABLE INITIALLY DEFERRED`,
		`ALTER TABLE "auth_group_permissions" ADD CONSTRAINT "auth_group_permissio_permission_id_84c5c92e_fk_auth_perm" FOREIGN KEY ("permission_id") REFERENCES "auth_permission" ("id") DEFERRABLE INITIALLY DEFERRED`,
		`CREATE INDEX "auth_group_permissions_group_id_b120cbf9" ON "auth_group_permissions" ("group_id")`,
		`CREATE INDEX "auth_group_permissions_permission_id_84c5c92e" ON "auth_group_permissions" ("permission_id")`,
		`ALTER TABLE "auth_user_groups" ADD CONSTRAINT "auth_user_groups_user_id_group_id_94350c0c_uniq" UNIQUE ("user_id", "group_id")`,
		`ALTER TABLE "auth_user_groups" ADD CONSTRAINT "auth_user_groups_user_id_6a12ed8b_fk_auth_user_id" FOREIGN KEY ("user_id") REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED`,
		`ALTER TABLE "auth_user_groups" ADD CONSTRAINT "auth_user_groups_group_id_97559544_fk_auth_group_id" FOREIGN KEY ("group_id") REFERENCES "auth_group" ("id") DEFERRABLE INITIALLY DEFERRED`,
		`CREATE INDEX "auth_user_groups_user_id_6a12ed8b" ON "auth_user_groups" ("user_id")`,
		`CREATE INDEX "auth_user_groups_group_id_97559544" ON "auth_user_groups" ("group_id")`,
		`ALTER TABLE "auth_user_user_permissions" ADD CONSTRAINT "auth_user_user_permissions_user_id_permission_id_14a6b632_uniq" UNIQUE ("user_id", "permission_id")`,
		`ALTER TABLE "auth_user_user_permissions" ADD CONSTRAINT "auth_user_user_permissions_user_id_a95ead1b_fk_auth_user_id" FOREIGN KEY ("user_id") REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED`,
		`ALTER TABLE "auth_user_user_permissions" ADD CONSTRAINT "auth_user_user_permi_permission_id_1fbb5f2c_fk_auth_perm" FOREIGN KEY ("permission_id") REFERENCES "auth_permission" ("id") DEFERRABLE INITIALLY DEFERRED`,
		`CREATE INDEX "auth_user_user_permissions_user_id_a95ead1b" ON "auth_user_user_permissions" ("user_id")`,
		`CREATE INDEX "auth_user_user_permissions_permission_id_1fbb5f2c" ON "auth_user_user_permissions" ("permission_id")`,
	))},
	// Django's later auth migrations: the tables above are in the state
	// they leave.
	{App: "auth", Name: "0003_alter_user_email_max_length", Up: store.SQL()},
	{App: "auth", Name: "0004_alter_user_username_opts", Up: store.SQL()},
	{App: "auth", Name: "0005_alter_user_last_login_null", Up: store.SQL()},
	{App: "auth", Name: "0006_require_contenttypes_0002", Up: store.SQL()},
	{App: "auth", Name: "0007_alter_validators_add_error_messages", Up: store.SQL()},
	{App: "auth", Name: "0008_alter_user_username_max_length", Up: store.SQL()},
	{App: "auth", Name: "0009_alter_user_last_name_max_length", Up: store.SQL()},
	{App: "auth", Name: "0010_alter_group_name_max_length", Up: store.SQL()},
	{App: "auth", Name: "0011_update_proxy_permissions", Up: store.SQL()},
	{App: "auth", Name: "0012_alter_user_first_name_max_length", Up: store.SQL()},
}
