package simplejwt

import (
	"time"

	"github.com/go-drf/drf/contrib/internal/djangoapps"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
)

// OutstandingToken is simplejwt's token_blacklist.OutstandingToken, one
// row of token_blacklist_outstandingtoken: a refresh token made for a
// user, or one blacklisted that was not recorded.
type OutstandingToken struct {
	// ID is the primary key (a BigAutoField).
	ID int64 `db:"id" json:"id"`
	// UserID is the user the token was made for; nil for a token
	// blacklisted that was not recorded, or whose user was deleted.
	UserID *int64 `db:"user_id" json:"user" model:"foreign_key=auth_user,on_delete=set_null,blank"`
	// JTI is the token's jti claim.
	JTI string `db:"jti" json:"jti" model:"max_length=255,unique"`
	// Token is the encoded token.
	Token string `db:"token" json:"token"`
	// CreatedAt is when the token was made; nil when it was not recorded
	// then.
	CreatedAt *time.Time `db:"created_at" json:"created_at" model:"blank"`
	// ExpiresAt is the token's exp claim.
	ExpiresAt time.Time `db:"expires_at" json:"expires_at"`
}

// Meta declares simplejwt's OutstandingToken model, ordered by user.
func (OutstandingToken) Meta() models.Meta {
	return models.Meta{App: "token_blacklist", Ordering: []string{"user"}}
}

// BlacklistedToken is simplejwt's token_blacklist.BlacklistedToken, one
// row of token_blacklist_blacklistedtoken: an outstanding token that no
// longer authenticates.
type BlacklistedToken struct {
	// ID is the primary key (a BigAutoField).
	ID int64 `db:"id" json:"id"`
	// TokenID is the outstanding token blacklisted, at most once.
	TokenID int64 `db:"token_id" json:"token" model:"one_to_one=token_blacklist_outstandingtoken,on_delete=cascade"`
	// BlacklistedAt is when it was blacklisted.
	BlacklistedAt time.Time `db:"blacklisted_at" json:"blacklisted_at" model:"auto_now_add"`
}

// Meta declares simplejwt's BlacklistedToken model.
func (BlacklistedToken) Meta() models.Meta { return models.Meta{App: "token_blacklist"} }

// The fields of token_blacklist's migrations.
var (
	// autoID is 0001's id, the one Django adds, which 0008 makes a
	// BigAutoField (autoBigID) and 0010 a declared one (bigID).
	autoID    = models.Field{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true, AutoCreated: true}
	autoBigID = models.Field{Name: "id", Column: "id", Kind: models.BigAutoField, PrimaryKey: true, AutoCreated: true}
	bigID     = models.Field{Name: "id", Column: "id", Kind: models.BigAutoField, PrimaryKey: true}
	// jtiHex is the jti_hex of 0002, which 0004 makes unique and 0006
	// renames jti once 0005 removed 0001's UUIDField.
	jtiHex = models.Field{Name: "jti_hex", Column: "jti_hex", Kind: models.CharField, MaxLength: 255, Null: true, Blank: true}
)

// user returns the field user of OutstandingToken, a foreign key to
// auth_user.
func user(onDelete models.OnDelete, null bool) models.Field {
	return models.Field{Name: "user", Column: "user_id", Kind: models.ForeignKey, Null: null, Blank: null, DBIndex: true,
		Related: &models.Relation{Table: "auth_user", Column: "id", OnDelete: onDelete}}
}

// App is simplejwt's token_blacklist app: the OutstandingToken and
// BlacklistedToken models and simplejwt 5.5's migrations (there is no
// 0009), for the migrate, makemigrations and sqlmigrate commands. 0003's
// Python code, which copies each jti into jti_hex, has no Go operation: a
// database holding tokens at 0002 is migrated past it by Django. 0011
// only orders the history, and 5.5's 0013 changes only the models'
// verbose names.
var App = djangoapps.With(migrations.NewApp("token_blacklist", OutstandingToken{}, BlacklistedToken{}),
	migrations.Migration{
		Name: "0001_initial",
		Operations: []migrations.Operation{
			migrations.CreateModel{
				Name:  "BlacklistedToken",
				Table: "token_blacklist_blacklistedtoken",
				Fields: []models.Field{
					autoID,
					{Name: "blacklisted_at", Column: "blacklisted_at", Kind: models.DateTimeField, Blank: true},
				},
			},
			migrations.CreateModel{
				Name:  "OutstandingToken",
				Table: "token_blacklist_outstandingtoken",
				Fields: []models.Field{
					autoID,
					{Name: "jti", Column: "jti", Kind: models.UUIDField, Unique: true},
					{Name: "token", Column: "token", Kind: models.TextField},
					{Name: "created_at", Column: "created_at", Kind: models.DateTimeField},
					{Name: "expires_at", Column: "expires_at", Kind: models.DateTimeField},
					user(models.Cascade, false),
				},
			},
			migrations.AddField{Model: "blacklistedtoken", Field: models.Field{Name: "token", Column: "token_id",
				Kind: models.OneToOneField, Unique: true,
				Related: &models.Relation{Table: "token_blacklist_outstandingtoken", Column: "id", OnDelete: models.Cascade}}},
		},
	},
	migrations.Migration{Name: "0002_outstandingtoken_jti_hex", Operations: []migrations.Operation{
		migrations.AddField{Model: "outstandingtoken", Field: jtiHex},
	}},
	migrations.Migration{Name: "0003_auto_20171017_2007"},
	migrations.Migration{Name: "0004_auto_20171017_2013", Operations: []migrations.Operation{
		migrations.AlterField{Model: "outstandingtoken", Field: models.Field{Name: "jti_hex", Column: "jti_hex",
			Kind: models.CharField, MaxLength: 255, Unique: true}},
	}},
	migrations.Migration{Name: "0005_remove_outstandingtoken_jti", Operations: []migrations.Operation{
		migrations.RemoveField{Model: "outstandingtoken", Name: "jti"},
	}},
	migrations.Migration{Name: "0006_auto_20171017_2113", Operations: []migrations.Operation{
		migrations.RenameField{Model: "outstandingtoken", OldName: "jti_hex", NewName: "jti"},
	}},
	migrations.Migration{Name: "0007_auto_20171017_2214", Operations: []migrations.Operation{
		migrations.AlterField{Model: "outstandingtoken", Field: models.Field{Name: "created_at", Column: "created_at",
			Kind: models.DateTimeField, Null: true, Blank: true}},
		migrations.AlterField{Model: "outstandingtoken", Field: user(models.Cascade, true)},
	}},
	migrations.Migration{Name: "0008_migrate_to_bigautofield", Operations: []migrations.Operation{
		migrations.AlterField{Model: "blacklistedtoken", Field: autoBigID},
		migrations.AlterField{Model: "outstandingtoken", Field: autoBigID},
	}},
	migrations.Migration{Name: "0010_fix_migrate_to_bigautofield", Operations: []migrations.Operation{
		migrations.AlterField{Model: "blacklistedtoken", Field: bigID},
		migrations.AlterField{Model: "outstandingtoken", Field: bigID},
	}},
	migrations.Migration{Name: "0011_linearizes_history"},
	migrations.Migration{Name: "0012_alter_outstandingtoken_user", Operations: []migrations.Operation{
		migrations.AlterField{Model: "outstandingtoken", Field: user(models.SetNull, true)},
	}},
	migrations.Migration{Name: "0013_alter_blacklistedtoken_options_and_more"},
)

// Migrations create the token_blacklist app's tables,
// token_blacklist_outstandingtoken and token_blacklist_blacklistedtoken,
// as simplejwt's migrations create them on SQLite and on PostgreSQL
// (App's migrations, recorded under simplejwt's names, so that a
// database Django migrated is recognised). They need auth.Migrations
// first.
var Migrations = djangoapps.Migrations(App)
