// Package djangoapps builds contrib's Django apps on the model layer: an
// app's migrations.App with the migrations of the Django package it
// stands for, and those migrations as the migrate command applies them.
package djangoapps

import (
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
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

// Store returns a's migrations for store.Migrate, each with its SQL on
// SQLite and on PostgreSQL. contrib's migrations are fixed, and tested
// against Django's own; one that does not render is a defect of contrib,
// reported when the program starts.
func Store(a *migrations.App) []store.Migration {
	migs, err := a.Store()
	if err != nil {
		panic("contrib: the migrations of app " + a.Label + ": " + err.Error())
	}
	return migs
}
