// Package compat names the Django REST framework and Django releases whose
// answers the framework matches: DRF 3.18 on Django 5.2 LTS by default,
// DRF 3.14 on Django 3.2 as a compatibility level (docs/django.md lists
// every answer that differs). Settings.Compatibility chooses one for an
// API; registration resolves it once and hands it to the policies whose
// answers differ.
package compat

import "fmt"

// Level is the DRF and Django release whose answers are matched. The zero
// value is the current one, DRF 3.18 on Django 5.2.
type Level uint8

const (
	// Current is DRF 3.18 on Django 5.2 LTS, the default.
	Current Level = iota
	// DRF314 is DRF 3.14 on Django 3.2 (Debian 12's), for services that
	// must answer as those releases do.
	DRF314
)

// Env is the environment variable manage runserver and the sample read
// the level from: "3.14", or unset or empty for the current one.
const Env = "DRF_COMPAT"

// Parse reads a level as $DRF_COMPAT spells it: "" is Current, "3.14"
// DRF314; anything else is an error naming the values allowed.
func Parse(s string) (Level, error) {
	switch s {
	case "":
		return Current, nil
	case "3.14":
		return DRF314, nil
	}
	return Current, fmt.Errorf("%s=%q: want \"3.14\" (DRF 3.14 on Django 3.2), or unset for DRF 3.18 on Django 5.2", Env, s)
}

// String names the level's DRF and Django releases.
func (l Level) String() string {
	if l == DRF314 {
		return "DRF 3.14 on Django 3.2"
	}
	return "DRF 3.18 on Django 5.2"
}

// Setter is implemented by a policy whose answers differ between levels:
// registration calls WithCompatibility once with the API's level and uses
// the policy it returns, so that no request looks the level up.
type Setter[T any] interface {
	WithCompatibility(Level) T
}

// Apply returns policies with each Setter among them set to level; the
// slice is copied when one is.
func Apply[T any](policies []T, level Level) []T {
	var out []T
	for i, p := range policies {
		s, ok := any(p).(Setter[T])
		if !ok {
			continue
		}
		if out == nil {
			out = append([]T(nil), policies...)
		}
		out[i] = s.WithCompatibility(level)
	}
	if out == nil {
		return policies
	}
	return out
}
