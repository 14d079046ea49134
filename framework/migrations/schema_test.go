package migrations_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
)

// book is the sample's Book as a model: the statements below are what
// Django 3.2 creates for the reference's Book, which the sample's
// migration was written by hand as before it was generated.
type book struct {
	ID      int       `db:"id"`
	Title   string    `db:"title" model:"max_length=200"`
	Author  string    `db:"author" model:"max_length=200"`
	Rating  int       `db:"rating"`
	Created time.Time `db:"created" model:"db_index"`
	OwnerID int       `db:"owner_id" model:"foreign_key=auth_user,on_delete=cascade"`
}

func (book) Meta() models.Meta { return models.Meta{App: "bookshelf", Table: "books"} }

// statements are the statements of m from the state before it on dialect.
func statements(t *testing.T, m migrations.Migration, before *migrations.State, dialect store.Dialect) []string {
	t.Helper()
	if before == nil {
		before = &migrations.State{App: m.App}
	}
	lines, _, err := m.SQL(compat.DRF314, dialect, before)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range lines {
		out = append(out, l.Parts...)
	}
	return out
}

func sameStatements(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %s\nwant %s", what, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// TestBooksAsTheSampleCreatesThem: the initial migration of a model
// equivalent to the sample's Book is, byte for byte, Django 3.2's for the
// reference's Book on both dialects (the sample's hand-written migration
// until sample/migration_0001_initial.go replaced it).
func TestBooksAsTheSampleCreatesThem(t *testing.T) {
	app := &migrations.App{Label: "bookshelf", Models: []reflect.Type{reflect.TypeFor[book]()}, Dir: t.TempDir()}
	m, err := app.MakeMigrationAt(compat.DRF314, "", testTime)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "0001_initial" {
		t.Errorf("named %q", m.Name)
	}
	sameStatements(t, "SQLite", statements(t, *m, nil, store.SQLite), []string{
		`CREATE TABLE "books" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "title" varchar(200) NOT NULL, ` +
			`"author" varchar(200) NOT NULL, "rating" integer NOT NULL, "created" datetime NOT NULL, ` +
			`"owner_id" integer NOT NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED)`,
		`CREATE INDEX "books_created_12281279" ON "books" ("created")`,
		`CREATE INDEX "books_owner_id_552d09c7" ON "books" ("owner_id")`,
	})
	sameStatements(t, "PostgreSQL", statements(t, *m, nil, store.PostgreSQL), []string{
		`CREATE TABLE "books" ("id" serial NOT NULL PRIMARY KEY, "title" varchar(200) NOT NULL, ` +
			`"author" varchar(200) NOT NULL, "rating" integer NOT NULL, "created" timestamp with time zone NOT NULL, ` +
			`"owner_id" integer NOT NULL)`,
		`ALTER TABLE "books" ADD CONSTRAINT "books_owner_id_552d09c7_fk_auth_user_id" FOREIGN KEY ("owner_id") ` +
			`REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED`,
		`CREATE INDEX "books_created_12281279" ON "books" ("created")`,
		`CREATE INDEX "books_owner_id_552d09c7" ON "books" ("owner_id")`,
	})
}

func autoID() models.Field {
	return models.Field{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true}
}

func char(name string, n int) models.Field {
	return models.Field{Name: name, Column: name, Kind: models.CharField, MaxLength: n}
}

func fk(name, table string) models.Field {
	return models.Field{Name: name, Column: name + "_id", Kind: models.ForeignKey, DBIndex: true,
		Related: &models.Relation{Table: table, Column: "id", OnDelete: models.Cascade}}
}

// through is Django's automatic table of a many-to-many field.
func through(name, table, from, fromTable, to, toTable string) migrations.CreateModel {
	return migrations.CreateModel{Name: name, Table: table,
		Fields:         []models.Field{autoID(), fk(from, fromTable), fk(to, toTable)},
		UniqueTogether: [][]string{{from, to}}}
}

// TestAuthTablesAsContribCreatesThem: Django's contenttypes and auth
// models in their final state, as operations, give the tables Django's
// migrations leave (the SQL contrib/auth's migrations were written out
// as; on SQLite, the tables whose columns Django's later migrations did
// not reorder), on both dialects, without Django: unique_together,
// foreign keys with PostgreSQL's shortened constraint names, indexes and
// _like indexes. contrib/auth's TestMigrationsAsDjango holds the
// migrations themselves to Django's.
func TestAuthTablesAsContribCreatesThem(t *testing.T) {
	user := migrations.CreateModel{Name: "User", Table: "auth_user", Fields: []models.Field{
		autoID(), char("password", 128),
		{Name: "last_login", Column: "last_login", Kind: models.DateTimeField, Null: true, Blank: true},
		{Name: "is_superuser", Column: "is_superuser", Kind: models.BooleanField, HasDefault: true, Default: "false"},
		{Name: "username", Column: "username", Kind: models.CharField, MaxLength: 150, Unique: true},
		char("first_name", 150), char("last_name", 150),
		{Name: "email", Column: "email", Kind: models.EmailField, MaxLength: 254, Blank: true},
		{Name: "is_staff", Column: "is_staff", Kind: models.BooleanField, HasDefault: true, Default: "false"},
		{Name: "is_active", Column: "is_active", Kind: models.BooleanField, HasDefault: true, Default: "true"},
		{Name: "date_joined", Column: "date_joined", Kind: models.DateTimeField},
	}}
	sameStatements(t, "auth_user on PostgreSQL", statements(t, migrations.Migration{App: "auth", Name: "0001_initial",
		Operations: []migrations.Operation{user}}, nil, store.PostgreSQL), []string{
		`CREATE TABLE "auth_user" ("id" serial NOT NULL PRIMARY KEY, "password" varchar(128) NOT NULL, ` +
			`"last_login" timestamp with time zone NULL, "is_superuser" boolean NOT NULL, ` +
			`"username" varchar(150) NOT NULL UNIQUE, "first_name" varchar(150) NOT NULL, ` +
			`"last_name" varchar(150) NOT NULL, "email" varchar(254) NOT NULL, "is_staff" boolean NOT NULL, ` +
			`"is_active" boolean NOT NULL, "date_joined" timestamp with time zone NOT NULL)`,
		`CREATE INDEX "auth_user_username_6821ab7c_like" ON "auth_user" ("username" varchar_pattern_ops)`,
	})

	contentType := migrations.Migration{App: "contenttypes", Name: "0001_initial", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "ContentType", Table: "django_content_type",
			Fields:         []models.Field{autoID(), char("app_label", 100), char("model", 100)},
			UniqueTogether: [][]string{{"app_label", "model"}}},
	}}
	sameStatements(t, "django_content_type on SQLite", statements(t, contentType, nil, store.SQLite), []string{
		`CREATE TABLE "django_content_type" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, ` +
			`"app_label" varchar(100) NOT NULL, "model" varchar(100) NOT NULL)`,
		`CREATE UNIQUE INDEX "django_content_type_app_label_model_76bd3d3b_uniq" ON "django_content_type" ("app_label", "model")`,
	})
	sameStatements(t, "django_content_type on PostgreSQL", statements(t, contentType, nil, store.PostgreSQL), []string{
		`CREATE TABLE "django_content_type" ("id" serial NOT NULL PRIMARY KEY, ` +
			`"app_label" varchar(100) NOT NULL, "model" varchar(100) NOT NULL)`,
		`ALTER TABLE "django_content_type" ADD CONSTRAINT "django_content_type_app_label_model_76bd3d3b_uniq" UNIQUE ("app_label", "model")`,
	})

	permission := migrations.CreateModel{Name: "Permission", Table: "auth_permission",
		Fields:         []models.Field{autoID(), char("name", 255), fk("content_type", "django_content_type"), char("codename", 100)},
		UniqueTogether: [][]string{{"content_type", "codename"}}}
	group := migrations.CreateModel{Name: "Group", Table: "auth_group",
		Fields: []models.Field{autoID(), {Name: "name", Column: "name", Kind: models.CharField, MaxLength: 150, Unique: true}}}
	tables := migrations.Migration{App: "auth", Name: "0002", Operations: []migrations.Operation{
		permission, group,
		through("GroupPermissions", "auth_group_permissions", "group", "auth_group", "permission", "auth_permission"),
		through("UserGroups", "auth_user_groups", "user", "auth_user", "group", "auth_group"),
		through("UserPermissions", "auth_user_user_permissions", "user", "auth_user", "permission", "auth_permission"),
	}}
	sameStatements(t, "the permission tables on PostgreSQL", statements(t, tables, nil, store.PostgreSQL), []string{
		`CREATE TABLE "auth_permission" ("id" serial NOT NULL PRIMARY KEY, "name" varchar(255) NOT NULL, ` +
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
	})
	// On SQLite each table comes with its own indexes (Django created them
	// in migrations of their own): one migration per table.
	var sqlite []string
	for _, op := range tables.Operations[1:] {
		sqlite = append(sqlite, statements(t, migrations.Migration{App: "auth", Name: "x", Operations: []migrations.Operation{op}}, nil, store.SQLite)...)
	}
	sameStatements(t, "the permission tables on SQLite", sqlite, []string{
		`CREATE TABLE "auth_group" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "name" varchar(150) NOT NULL UNIQUE)`,
		`CREATE TABLE "auth_group_permissions" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, ` +
			`"group_id" integer NOT NULL REFERENCES "auth_group" ("id") DEFERRABLE INITIALLY DEFERRED, ` +
			`"permission_id" integer NOT NULL REFERENCES "auth_permission" ("id") DEFERRABLE INITIALLY DEFERRED)`,
		`CREATE UNIQUE INDEX "auth_group_permissions_group_id_permission_id_0cd325b0_uniq" ON "auth_group_permissions" ("group_id", "permission_id")`,
		`CREATE INDEX "auth_group_permissions_group_id_b120cbf9" ON "auth_group_permissions" ("group_id")`,
		`CREATE INDEX "auth_group_permissions_permission_id_84c5c92e" ON "auth_group_permissions" ("permission_id")`,
		`CREATE TABLE "auth_user_groups" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, ` +
			`"user_id" integer NOT NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED, ` +
			`"group_id" integer NOT NULL REFERENCES "auth_group" ("id") DEFERRABLE INITIALLY DEFERRED)`,
		`CREATE UNIQUE INDEX "auth_user_groups_user_id_group_id_94350c0c_uniq" ON "auth_user_groups" ("user_id", "group_id")`,
		`CREATE INDEX "auth_user_groups_user_id_6a12ed8b" ON "auth_user_groups" ("user_id")`,
		`CREATE INDEX "auth_user_groups_group_id_97559544" ON "auth_user_groups" ("group_id")`,
		`CREATE TABLE "auth_user_user_permissions" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, ` +
			`"user_id" integer NOT NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED, ` +
			`"permission_id" integer NOT NULL REFERENCES "auth_permission" ("id") DEFERRABLE INITIALLY DEFERRED)`,
		`CREATE UNIQUE INDEX "auth_user_user_permissions_user_id_permission_id_14a6b632_uniq" ON "auth_user_user_permissions" ("user_id", "permission_id")`,
		`CREATE INDEX "auth_user_user_permissions_user_id_a95ead1b" ON "auth_user_user_permissions" ("user_id")`,
		`CREATE INDEX "auth_user_user_permissions_permission_id_1fbb5f2c" ON "auth_user_user_permissions" ("permission_id")`,
	})
}

// TestNames pins Meta.indexes names and the first migration's name.
func TestNames(t *testing.T) {
	add := migrations.AddField{Model: "snippet", Field: char("title", 10)}
	for _, level := range []compat.Level{compat.DRF314, compat.Current} {
		if got := migrations.Name(level, "", []migrations.Operation{add}, testTime); got != "0001_initial" {
			t.Errorf("%s: the first migration is named %q", level, got)
		}
	}
	for _, c := range []struct {
		table string
		cols  []string
		want  string
	}{
		{"snippets_snippet", []string{"title", "-created"}, "snippets_sn_title_49bab7_idx"},
		{"2fa_device", []string{"-code"}, "Dfa_device_code_ef8017_idx"},
	} {
		if got := migrations.AutoIndexName(c.table, c.cols); got != c.want {
			t.Errorf("AutoIndexName(%q, %v) = %q, want %q", c.table, c.cols, got, c.want)
		}
	}
	// A name beyond PostgreSQL's 63 characters is shortened, and one that
	// would start with a digit starts with D, as Django's
	// _create_index_name has them.
	long := fk("x", "other_table_name_long")
	long.Column = "a_very_long_column_name_indeed_more_than_twenty"
	table := "9" + strings.Repeat("x", 70)
	got := statements(t, migrations.Migration{App: "x", Name: "0001_initial", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "X", Table: table, Fields: []models.Field{autoID(), long}}}}, nil, store.PostgreSQL)
	want := `ADD CONSTRAINT "D9xxxxxxxxxxxxxxxxxxx_a_very_long_column_n_63a93596_fk_other_ta" FOREIGN KEY`
	if len(got) < 2 || !strings.Contains(got[1], want) {
		t.Errorf("the foreign key of a long name: %q, want %q", got, want)
	}
}

// author has a BigAutoField key, which the foreign key of entry takes.
type author struct {
	ID int64 `db:"id"`
}

func (author) Meta() models.Meta { return models.Meta{App: "blog"} }

type entry struct {
	ID       int   `db:"id"`
	AuthorID int64 `db:"author_id" model:"foreign_key=blog_author"`
}

func (entry) Meta() models.Meta { return models.Meta{App: "blog"} }

// TestForeignKeyTakesItsTargetsType: a foreign key to a model whose key
// is a BigAutoField is a bigint, as Django's rel_db_type has it, and the
// new models come in Django's order, the relation folded in.
func TestForeignKeyTakesItsTargetsType(t *testing.T) {
	app := &migrations.App{Label: "blog", Models: []reflect.Type{reflect.TypeFor[entry](), reflect.TypeFor[author]()}}
	m, err := app.MakeMigrationAt(compat.DRF314, "", testTime)
	if err != nil {
		t.Fatal(err)
	}
	sameStatements(t, "blog on PostgreSQL", statements(t, *m, nil, store.PostgreSQL), []string{
		`CREATE TABLE "blog_author" ("id" bigserial NOT NULL PRIMARY KEY)`,
		`CREATE TABLE "blog_entry" ("id" serial NOT NULL PRIMARY KEY, "author_id" bigint NOT NULL)`,
		`ALTER TABLE "blog_entry" ADD CONSTRAINT "blog_entry_author_id_81ca74ac_fk_blog_author_id" FOREIGN KEY ("author_id") REFERENCES "blog_author" ("id") DEFERRABLE INITIALLY DEFERRED`,
		`CREATE INDEX "blog_entry_author_id_81ca74ac" ON "blog_entry" ("author_id")`,
	})
}

// TestNamesAsDjango holds the automatic names of migrations after the
// first (makemigrations without --name) equal to those Django 3.2's and
// Django 5.2's Migration.suggest_name give the same operations
// (testdata/names.py): one operation's fragment, the created models'
// names on 3.2, the fragments up to 52 characters and "_and_more" on
// 5.2, the dated auto name.
func TestNamesAsDjango(t *testing.T) {
	add := migrations.AddField{Model: "snippet", Field: char("title", 10)}
	remove := migrations.RemoveField{Model: "snippet", Name: "code"}
	cases := [][]migrations.Operation{
		{add},
		{remove},
		{migrations.AlterField{Model: "snippet", Field: char("title", 10)}},
		{migrations.DeleteModel{Name: "Snippet"}},
		{migrations.AlterUniqueTogether{Model: "snippet"}},
		{migrations.CreateModel{Name: "Tag"}, migrations.CreateModel{Name: "Comment"}},
		{add, remove},
		{add, migrations.AlterField{Model: "snippet", Field: char("body", 10)}, remove, migrations.AlterUniqueTogether{Model: "snippet"}},
		{add, migrations.RunSQL{SQL: []string{"SELECT 1"}}},
	}
	for _, dj := range djangos {
		t.Run(dj.name, func(t *testing.T) {
			djangoAt(t, dj)
			out, err := pyrun.Command(dj.py, "testdata/names.py").Output()
			if err != nil {
				t.Fatalf("names.py: %v", err)
			}
			want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if len(want) != len(cases) {
				t.Fatalf("names.py printed %d names for %d cases", len(want), len(cases))
			}
			for i, ops := range cases {
				got := strings.TrimPrefix(migrations.Name(dj.level, "0001_initial", ops, testTime), "0002_")
				if got == "auto_"+testTime.Format("20060102_1504") {
					got = "auto"
				}
				if got != want[i] {
					t.Errorf("case %d: named %q, Django %q", i, got, want[i])
				}
			}
		})
	}
}
