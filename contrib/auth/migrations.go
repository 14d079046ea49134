package auth

import (
	"github.com/go-drf/drf/contrib/contenttypes"
	"github.com/go-drf/drf/contrib/internal/djangoapps"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
)

// App is Django's auth app: the User, Group and Permission models and
// Django 3.2's migrations, for the migrate, makemigrations and sqlmigrate
// commands. 0001 creates the tables with the lengths of Django 1.8, the
// later ones alter their fields to today's; 0004 and 0007 change only
// the username's validators and messages, which run no SQL, 0006 has no
// operation and 0011's Python code (proxy models' permissions) has no Go
// operation.
var App = djangoapps.With(migrations.NewApp("auth", User{}, Group{}, Permission{}),
	migrations.Migration{
		Name:         "0001_initial",
		Dependencies: [][2]string{{"contenttypes", "0001_initial"}},
		Operations: []migrations.Operation{
			migrations.CreateModel{
				Name:  "Permission",
				Table: "auth_permission",
				Fields: []models.Field{
					idField,
					charField("name", 50),
					{Name: "content_type", Column: "content_type_id", Kind: models.ForeignKey, DBIndex: true,
						Related: &models.Relation{Table: "django_content_type", Column: "id", OnDelete: models.Cascade}},
					charField("codename", 100),
				},
				UniqueTogether: [][]string{{"content_type", "codename"}},
			},
			migrations.CreateModel{
				Name:  "Group",
				Table: "auth_group",
				Fields: []models.Field{
					idField,
					uniqueName(80),
					manyToMany("permissions", "auth_permission"),
				},
			},
			migrations.CreateModel{
				Name:  "User",
				Table: "auth_user",
				Fields: []models.Field{
					idField,
					charField("password", 128),
					{Name: "last_login", Column: "last_login", Kind: models.DateTimeField},
					boolField("is_superuser", "false"),
					username(30),
					blankChar("first_name", 30),
					blankChar("last_name", 30),
					email(75),
					boolField("is_staff", "false"),
					boolField("is_active", "true"),
					{Name: "date_joined", Column: "date_joined", Kind: models.DateTimeField},
					manyToMany("groups", "auth_group"),
					manyToMany("user_permissions", "auth_permission"),
				},
			},
		},
	},
	migrations.Migration{Name: "0002_alter_permission_name_max_length", Operations: []migrations.Operation{
		migrations.AlterField{Model: "permission", Field: charField("name", 255)},
	}},
	migrations.Migration{Name: "0003_alter_user_email_max_length", Operations: []migrations.Operation{
		migrations.AlterField{Model: "user", Field: email(254)},
	}},
	migrations.Migration{Name: "0004_alter_user_username_opts", Operations: []migrations.Operation{
		migrations.AlterField{Model: "user", Field: username(30)},
	}},
	migrations.Migration{Name: "0005_alter_user_last_login_null", Operations: []migrations.Operation{
		migrations.AlterField{Model: "user", Field: models.Field{Name: "last_login", Column: "last_login",
			Kind: models.DateTimeField, Null: true, Blank: true}},
	}},
	migrations.Migration{Name: "0006_require_contenttypes_0002", Dependencies: [][2]string{{"contenttypes", "0002_remove_content_type_name"}}},
	migrations.Migration{Name: "0007_alter_validators_add_error_messages", Operations: []migrations.Operation{
		migrations.AlterField{Model: "user", Field: username(30)},
	}},
	migrations.Migration{Name: "0008_alter_user_username_max_length", Operations: []migrations.Operation{
		migrations.AlterField{Model: "user", Field: username(150)},
	}},
	migrations.Migration{Name: "0009_alter_user_last_name_max_length", Operations: []migrations.Operation{
		migrations.AlterField{Model: "user", Field: blankChar("last_name", 150)},
	}},
	migrations.Migration{Name: "0010_alter_group_name_max_length", Operations: []migrations.Operation{
		migrations.AlterField{Model: "group", Field: uniqueName(150)},
	}},
	migrations.Migration{Name: "0011_update_proxy_permissions"},
	migrations.Migration{Name: "0012_alter_user_first_name_max_length", Operations: []migrations.Operation{
		migrations.AlterField{Model: "user", Field: blankChar("first_name", 150)},
	}},
)

// idField is Django's automatic id.
var idField = models.Field{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true}

func charField(name string, maxLength int) models.Field {
	return models.Field{Name: name, Column: name, Kind: models.CharField, MaxLength: maxLength}
}

func blankChar(name string, maxLength int) models.Field {
	f := charField(name, maxLength)
	f.Blank = true
	return f
}

func uniqueName(maxLength int) models.Field {
	f := charField("name", maxLength)
	f.Unique = true
	return f
}

func username(maxLength int) models.Field {
	f := charField("username", maxLength)
	f.Unique = true
	return f
}

func email(maxLength int) models.Field {
	return models.Field{Name: "email", Column: "email", Kind: models.EmailField, Blank: true, MaxLength: maxLength}
}

func boolField(name, def string) models.Field {
	return models.Field{Name: name, Column: name, Kind: models.BooleanField, HasDefault: true, Default: def}
}

func manyToMany(name, table string) models.Field {
	return models.Field{Name: name, Kind: models.ManyToManyField, Blank: true,
		Related: &models.Relation{Table: table, Column: "id"}}
}

// Migrations create django_content_type, auth_user, auth_permission,
// auth_group and the many-to-many tables of users, groups and
// permissions as Django 3.2's contenttypes and auth migrations do on
// SQLite and on PostgreSQL (contenttypes.App's migrations, then App's,
// in the order of Django's migrate), recorded under Django's
// names, so a database Django created is recognised and left alone. The
// default permissions are created by PermissionsMigration.
var Migrations = djangoapps.Migrations(App, contenttypes.App.Migrations()...)
