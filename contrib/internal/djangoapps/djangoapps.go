// Package djangoapps builds contrib's Django apps on the model layer: an
// app's migrations.App with the migrations of the Django package it
// stands for.
package djangoapps

import (
	"github.com/go-drf/drf/framework/migrations"
)

// With adds ms to a, in order, and returns a: an app's migrations are
// package variables, so that the app is complete when the variables that
// read it are initialised (init functions run later).
func With(a *migrations.App, ms ...migrations.Migration) *migrations.App {
	for _, m := range ms {
		a.Add(m)
	}
	return a
}

// Migrations returns a's migrations, after those of before (the apps a's
// migrations depend on), checked to render on SQLite and PostgreSQL at
// both levels. contrib's migrations are fixed, and tested against
// Django's own; one that does not render is a defect of contrib,
// reported when the program starts.
func Migrations(a *migrations.App, before ...migrations.Migration) []migrations.Migration {
	migs := append(before[:len(before):len(before)], a.Migrations()...)
	if err := migrations.Check(migs...); err != nil {
		panic("contrib: the migrations of app " + a.Label + ": " + err.Error())
	}
	return migs
}
