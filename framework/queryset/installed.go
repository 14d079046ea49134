package queryset

import (
	"database/sql"
	"runtime"
	"sync"
	"weak"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
)

// installed holds each database's models (*models.Registry), by a weak
// pointer to the *sql.DB under its *sqlx.DB: an entry goes with its
// database, so a program (or a test) that opens many keeps none of the
// closed ones.
var installed sync.Map

// Installed returns the models whose rows live in db, which a delete
// from db applies on_delete to (Django's INSTALLED_APPS): every model a
// source over db was made for, and those a project installs.
func Installed(db *sqlx.DB) *models.Registry {
	key := weak.Make(db.DB)
	if r, ok := installed.Load(key); ok {
		return r.(*models.Registry)
	}
	r, loaded := installed.LoadOrStore(key, new(models.Registry))
	if !loaded {
		runtime.AddCleanup(db.DB, func(key weak.Pointer[sql.DB]) { installed.Delete(key) }, key)
	}
	return r.(*models.Registry)
}
