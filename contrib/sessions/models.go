package sessions

import (
	"time"

	"github.com/go-drf/drf/contrib/internal/djangoapps"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
)

// Session is Django's django.contrib.sessions.models.Session on its
// django_session table: a session's signed data under its key, until
// its expiry date.
type Session struct {
	// SessionKey is the key the session cookie carries.
	SessionKey string `db:"session_key" json:"session_key" model:"primary_key,max_length=40"`
	// SessionData is the data, signed and encoded as Django encodes it.
	SessionData string `db:"session_data" json:"session_data"`
	// ExpireDate is when the session ends.
	ExpireDate time.Time `db:"expire_date" json:"expire_date" model:"db_index"`
}

// Meta declares Django's Session model.
func (Session) Meta() models.Meta {
	return models.Meta{App: "sessions", Table: "django_session"}
}

// App is Django's sessions app: the Session model and Django's migration
// ("sessions 0001_initial"), for the migrate, makemigrations and
// sqlmigrate commands.
var App = djangoapps.With(migrations.NewApp("sessions", Session{}), migrations.Migration{
	Name: "0001_initial",
	Operations: []migrations.Operation{
		migrations.CreateModel{
			Name:  "Session",
			Table: "django_session",
			Fields: []models.Field{
				{Name: "session_key", Column: "session_key", Kind: models.CharField, PrimaryKey: true, MaxLength: 40},
				{Name: "session_data", Column: "session_data", Kind: models.TextField},
				{Name: "expire_date", Column: "expire_date", Kind: models.DateTimeField, DBIndex: true},
			},
		},
	},
})

// Migrations create django_session exactly as Django's "sessions
// 0001_initial" does on SQLite and on PostgreSQL (App's migration), and
// are recorded under that name, so a database Django created is
// recognised.
var Migrations = djangoapps.Migrations(App)
