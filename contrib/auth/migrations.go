package auth

import "github.com/go-drf/drf/framework/store"

// Migrations creates auth_user exactly as Django 3.2's auth migrations leave
// it on SQLite and on PostgreSQL. It is recorded as Django's "auth
// 0001_initial", so a database that Django created is recognised and left
// alone.
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
}
