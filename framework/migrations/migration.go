package migrations

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
)

// Migration is one migration of an app: Django's Migration class, as the
// generated file holds it.
type Migration struct {
	// App is the app's label; App.Add sets it.
	App string
	// Name is the migration's name ("0001_initial").
	Name string
	// Dependencies are the migrations of other apps that Migrate applies
	// before this one, as Django's dependencies list them:
	// {{"auth", "0001_initial"}}. The migrations of its own app before
	// it are dependencies without being listed.
	Dependencies [][2]string
	// Operations are its steps, in order.
	Operations []Operation
}

// String returns "app.name".
func (m Migration) String() string { return m.App + "." + m.Name }

// key is the migration's node in Django's migration graph: (app, name).
func (m Migration) key() [2]string { return [2]string{m.App, m.Name} }

// SQL returns the migration's SQL on dialect from the state before it,
// as the sqlmigrate of level's Django prints it (without BEGIN and
// COMMIT): Django 5.2's at compat.Current, Django 3.2's at compat.DRF314;
// and the state after it.
func (m Migration) SQL(level compat.Level, dialect store.Dialect, before *State) ([]Line, *State, error) {
	lines, after, err := m.sql(&editor{level: level, dialect: dialect, unrendered: true}, before)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", m, err)
	}
	return lines, after, nil
}

// sql writes the migration's SQL with e from the state before it. Django's
// sqlmigrate starts each migration with its state unrendered; its migrate
// renders the state before each migration it applies, so that a table
// SQLite remakes has the altered or added field last (e.unrendered false),
// and the tables differ from what sqlmigrate prints in their columns'
// order.
func (m Migration) sql(e *editor, before *State) ([]Line, *State, error) {
	s := before.Clone()
	for _, op := range m.Operations {
		_, goFunc := op.(RunGo)
		switch {
		case goFunc && e.level == compat.DRF314:
			e.comment(notSQL + op.Describe())
		case goFunc:
			e.comment(op.Describe())
			e.remark(notSQL52)
		default:
			e.comment(op.Describe())
		}
		n := len(e.lines)
		to := s.Clone()
		if err := op.apply(to); err != nil {
			return nil, nil, err
		}
		if err := nullsDistinct314(e.level, to); err != nil {
			return nil, nil, err
		}
		if err := e.postgresOnly(to); err != nil {
			return nil, nil, err
		}
		if err := op.database(e, s, to); err != nil {
			return nil, nil, err
		}
		// Django 5.2's sqlmigrate marks an operation of no SQL.
		if len(e.lines) == n && !goFunc && e.level == compat.Current {
			e.remark("(no-op)")
		}
		e.unrendered = e.unrendered && !op.renders()
		s = to
	}
	e.flush()
	return e.lines, s, nil
}

// SQLMigrate renders lines as Django's sqlmigrate prints a migration:
// BEGIN;, each operation's description between "--" lines, each
// statement with its ";" (nothing for a RunGo's function), each remark
// after "-- ", COMMIT;.
func SQLMigrate(lines []Line) string {
	var b strings.Builder
	b.WriteString("BEGIN;\n")
	for _, l := range lines {
		switch {
		case l.Comment:
			b.WriteString("--\n-- " + l.Text + "\n--\n")
		case l.Remark:
			b.WriteString("-- " + l.Text + "\n")
		case l.Run == nil:
			b.WriteString(l.Text + ";\n")
		}
	}
	b.WriteString("COMMIT;\n")
	return b.String()
}

// App is an app's models and migrations: what makemigrations compares and
// where it writes, what migrate applies (Migrate, of App.Migrations).
// Declare it in the app's package as a variable named App (the generated
// files call App.Add), with NewApp.
type App struct {
	// Label is the app label ("snippets"), the models' Meta.App.
	Label string
	// Models are the app's models, described at setup.
	Models []reflect.Type
	// Dir is the app's package directory, where makemigrations writes.
	Dir string

	mu         sync.Mutex
	migrations []Migration
}

// registered are the apps NewApp made, whose primary keys give the type
// of the foreign keys to their tables.
var registered struct {
	sync.Mutex
	apps []*App
}

// NewApp returns the app of that label with those models, whose
// directory is the one of the file that calls NewApp (as the program was
// compiled: makemigrations runs from the source tree, with go run). A
// foreign key of any app to one of these models' tables has the type of
// the model's primary key (a BigAutoField's is bigint); to another table,
// an integer, as to Django's auth_user.
func NewApp(label string, ms ...models.Model) *App {
	a := &App{Label: label}
	if _, file, _, ok := runtime.Caller(1); ok {
		a.Dir = filepath.Dir(file)
	}
	for _, m := range ms {
		a.Models = append(a.Models, reflect.TypeOf(m))
	}
	registered.Lock()
	registered.apps = append(registered.apps, a)
	registered.Unlock()
	return a
}

// Add adds a migration to the app; the generated files call it from their
// init functions.
func (a *App) Add(m Migration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	m.App = a.Label
	a.migrations = append(a.migrations, m)
}

// Migrations are the app's migrations, ordered by name (their number).
func (a *App) Migrations() []Migration {
	a.mu.Lock()
	defer a.mu.Unlock()
	ms := slices.Clone(a.migrations)
	slices.SortStableFunc(ms, func(x, y Migration) int { return strings.Compare(x.Name, y.Name) })
	return ms
}

// Find returns the migration of that name, or else those whose names
// start with it, as Django finds a migration by a prefix ("0001").
func (a *App) Find(name string) []Migration {
	var found []Migration
	for _, m := range a.Migrations() {
		if m.Name == name {
			return []Migration{m}
		}
		if strings.HasPrefix(m.Name, name) {
			found = append(found, m)
		}
	}
	return found
}

// StateBefore is the state the app's migrations before the named one
// leave (all of them for ""), replayed from their operations.
func (a *App) StateBefore(name string) (*State, error) {
	s := &State{App: a.Label}
	for _, m := range a.Migrations() {
		if m.Name == name {
			break
		}
		for _, op := range m.Operations {
			if err := op.apply(s); err != nil {
				return nil, fmt.Errorf("%s: %w", m, err)
			}
		}
	}
	return s, nil
}

// StateAt is the state Django's sqlmigrate writes m's SQL from, its
// project state at m: the migrations among migs that m depends on (those
// of its app before it, in the order given, and through their
// Dependencies those of other apps), replayed in the order Migrate
// applies them, the other apps' models beside m's app's. A dependency
// missing from migs is left out.
func StateAt(m Migration, migs ...Migration) (*State, error) {
	g := newGraph(migs)
	byKey, previous := g.byKey, g.previous
	seen := make([]bool, len(migs))
	var order []int
	var visit func(i int)
	visit = func(i int) {
		if seen[i] {
			return
		}
		seen[i] = true
		if previous[i] >= 0 {
			visit(previous[i])
		}
		for _, d := range migs[i].Dependencies {
			if j, ok := byKey[d]; ok {
				visit(j)
			}
		}
		order = append(order, i)
	}
	i, ok := byKey[m.key()]
	if !ok {
		return nil, fmt.Errorf("migrations: no migration %s", m)
	}
	seen[i] = true // m itself is not replayed
	if previous[i] >= 0 {
		visit(previous[i])
	}
	for _, d := range m.Dependencies {
		if j, ok := byKey[d]; ok {
			visit(j)
		}
	}
	project := map[string]*State{}
	for _, j := range order {
		x := migs[j]
		s := project[x.App]
		if s == nil {
			s = &State{App: x.App}
		}
		s = s.withOthers(project)
		for _, op := range x.Operations {
			if err := op.apply(s); err != nil {
				return nil, fmt.Errorf("%s: %w", x, err)
			}
		}
		s.split(project)
	}
	s := project[m.App]
	if s == nil {
		s = &State{App: m.App}
	}
	return s.withOthers(project), nil
}

// compatibilityKey is the context key of WithCompatibility.
type compatibilityKey struct{}

// WithCompatibility returns ctx carrying level, the Django whose migrate
// Migrate runs the migrations as (the migrate command sets it from
// $DRF_COMPAT).
func WithCompatibility(ctx context.Context, level compat.Level) context.Context {
	return context.WithValue(ctx, compatibilityKey{}, level)
}

// compatibilityOf is the level WithCompatibility put in ctx, else
// compat.DRF314.
func compatibilityOf(ctx context.Context) compat.Level {
	if l, ok := ctx.Value(compatibilityKey{}).(compat.Level); ok {
		return l
	}
	return compat.DRF314
}

// Current is the state of the app's models as declared now: what
// makemigrations brings the migrations to.
func (a *App) Current() ([]*ModelState, error) {
	pks := map[string]models.Kind{}
	registered.Lock()
	others := slices.Clone(registered.apps)
	registered.Unlock()
	for _, o := range others {
		for _, t := range o.Models {
			if d, err := models.Describe(t); err == nil {
				pks[d.Meta.Table] = d.PrimaryKey.Kind
			}
		}
	}
	var ds []*models.Description
	for _, t := range a.Models {
		d, err := models.Describe(t)
		if err != nil {
			return nil, err
		}
		if d.Meta.App != a.Label {
			return nil, fmt.Errorf("migrations: model %s is of app %q, not %q", d.Meta.Name, d.Meta.App, a.Label)
		}
		pks[d.Meta.Table] = d.PrimaryKey.Kind
		if !d.Meta.Unmanaged {
			ds = append(ds, d)
		}
	}
	out := make([]*ModelState, len(ds))
	for i, d := range ds {
		out[i] = FromDescription(d, pks)
	}
	return out, nil
}

// packageName is the Go package of the app's directory, read from one of
// its files.
func (a *App) packageName() (string, error) {
	files, err := filepath.Glob(filepath.Join(a.Dir, "*.go"))
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		pf, err := parser.ParseFile(token.NewFileSet(), f, src, parser.PackageClauseOnly)
		if err == nil {
			return pf.Name.Name, nil
		}
	}
	return "", fmt.Errorf("migrations: no Go package in %s, the directory of app %q", a.Dir, a.Label)
}
