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

// modelSet is where a lookup finds the models that reference a table,
// whose reverse relations it may follow: those installed on the
// source's database (a *models.Registry), or, where no database is
// known, every model described (allDescribed).
type modelSet interface {
	ReferencesTo(table string) []models.Referrer
	OfTable(table string) []*models.Description
}

// allDescribed is every model described so far (models.ReferencesTo and
// models.OfTable): the reverse relations a lookup named at setup
// (LookupField) or on a slice may follow.
type allDescribed struct{}

func (allDescribed) ReferencesTo(table string) []models.Referrer { return models.ReferencesTo(table) }
func (allDescribed) OfTable(table string) []*models.Description  { return models.OfTable(table) }
