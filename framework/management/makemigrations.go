package management

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

// MakeMigrations returns the "makemigrations" command, Django's: for each
// app (or the one named) it writes the migration that brings the app's
// migrations to its models, a Go file in the app's directory
// (migrations.FileName), and reports it as Django does:
//
//	Migrations for 'snippets':
//	  snippets/migration_0001_initial.go
//	    - Create model Snippet
//
// or "No changes detected". The program must be built again (go run
// does it) for migrate and sqlmigrate to see a new file. --name names the
// migration; --dry-run prints without writing; --check exits 1 when a
// migration is missing, without writing it (Django 4.2's --check). The
// operations and their lines are those of Django 5.2's makemigrations,
// or Django 3.2's when $DRF_COMPAT is 3.14.
func MakeMigrations(apps ...*migrations.App) Command {
	return Command{
		Name:  "makemigrations",
		Usage: "[APP] [--name NAME] [--dry-run] [--check]",
		Help: "Writes the migrations that bring the apps' migrations to their models.\n\n" +
			"  --name NAME  the migration's name after its number\n" +
			"  --dry-run    show what would be written, write nothing\n" +
			"  --check      exit 1 when a migration is missing, write nothing",
		Run: func(ctx context.Context, env *Env, args []string) error {
			fs := flag.NewFlagSet("makemigrations", flag.ContinueOnError)
			name := fs.String("name", "", "")
			dryRun := fs.Bool("dry-run", false, "")
			check := fs.Bool("check", false, "")
			positional, err := parseInterspersed(fs, args)
			if err != nil {
				return err
			}
			if len(positional) > 1 {
				return &UsageError{Msg: "unexpected argument " + positional[1]}
			}
			if *name != "" && !validName(*name) {
				return &CommandError{Msg: "The migration name must be a valid Python identifier."}
			}
			selected := apps
			if len(positional) == 1 {
				a := findApp(apps, positional[0])
				if a == nil {
					return &CommandError{Msg: fmt.Sprintf("App '%s' could not be found. Is it in INSTALLED_APPS?", positional[0])}
				}
				selected = []*migrations.App{a}
			}
			level, err := compat.Parse(env.Var(compat.Env))
			if err != nil {
				return &CommandError{Msg: err.Error()}
			}
			now := time.Now()
			changed := false
			for _, a := range selected {
				m, err := a.MakeMigrationAt(level, *name, now)
				if err != nil {
					return &CommandError{Msg: err.Error()}
				}
				if m == nil {
					continue
				}
				changed = true
				path := filepath.Join(a.Dir, migrations.FileName(m.Name))
				if !*dryRun && !*check {
					if path, err = a.Write(*m, now); err != nil {
						return &CommandError{Msg: err.Error()}
					}
				}
				fmt.Fprintf(env.Stdout, "Migrations for '%s':\n  %s\n", a.Label, relative(path))
				for _, op := range m.Operations {
					fmt.Fprintf(env.Stdout, "    %s\n", migrations.FormattedDescription(level, op))
				}
			}
			switch {
			case !changed && len(positional) == 1:
				fmt.Fprintf(env.Stdout, "No changes detected in app '%s'\n", positional[0])
			case !changed:
				fmt.Fprintln(env.Stdout, "No changes detected")
			case *check:
				return errors.New("the models have changes without a migration")
			}
			return nil
		},
	}
}

// SQLMigrate returns the "sqlmigrate APP NAME" command, Django's: it
// prints the SQL of the app's migration NAME (or the one whose name
// starts with NAME) for the database's dialect, from the state the
// migrations it depends on leave, the apps' (migrations.StateAt), as Django 5.2's
// sqlmigrate prints it, or Django 3.2's when $DRF_COMPAT is 3.14.
// --database is the global option's.
func SQLMigrate(apps ...*migrations.App) Command {
	return Command{
		Name:  "sqlmigrate",
		Usage: "APP NAME [--database URL]",
		Help:  "Prints the SQL statements of a migration.\n\n  --database URL  the database whose dialect the SQL is for",
		Run: func(ctx context.Context, env *Env, args []string) error {
			fs := flag.NewFlagSet("sqlmigrate", flag.ContinueOnError)
			database := fs.String("database", "", "")
			positional, err := parseInterspersed(fs, args)
			if err != nil {
				return err
			}
			if len(positional) != 2 {
				return &UsageError{Msg: "sqlmigrate takes an app label and a migration name"}
			}
			label, name := positional[0], positional[1]
			a := findApp(apps, label)
			if a == nil {
				return &CommandError{Msg: fmt.Sprintf("App '%s' does not have migrations", label)}
			}
			found := a.Find(name)
			switch {
			case len(found) > 1:
				return &CommandError{Msg: fmt.Sprintf("More than one migration matches '%s' in app '%s'. Please be more specific.", name, label)}
			case len(found) == 0:
				return &CommandError{Msg: fmt.Sprintf("Cannot find a migration matching '%s' from app '%s'. Is it in INSTALLED_APPS?", name, label)}
			}
			m := found[0]
			level, err := compat.Parse(env.Var(compat.Env))
			if err != nil {
				return &CommandError{Msg: err.Error()}
			}
			if *database != "" {
				env.DatabaseURL = *database
			}
			db, err := env.DB()
			if err != nil {
				return &CommandError{Msg: err.Error()}
			}
			var all []migrations.Migration
			for _, x := range apps {
				all = append(all, x.Migrations()...)
			}
			before, err := migrations.StateAt(m, all...)
			if err != nil {
				return &CommandError{Msg: err.Error()}
			}
			lines, _, err := m.SQL(level, store.DialectOf(db), before)
			if err != nil {
				return &CommandError{Msg: err.Error()}
			}
			if len(lines) == 0 {
				fmt.Fprintln(env.Stderr, "No operations found.")
				return nil
			}
			_, err = fmt.Fprint(env.Stdout, migrations.SQLMigrate(lines))
			return err
		},
	}
}

// parseInterspersed parses fs's flags wherever they are among args, as
// Django's argparse does, and returns the positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := ParseFlags(fs, args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func findApp(apps []*migrations.App, label string) *migrations.App {
	for _, a := range apps {
		if a.Label == label {
			return a
		}
	}
	return nil
}

// validName reports a migration name Django accepts (a Python
// identifier), which also makes a file name.
func validName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// relative is path relative to the working directory, as Django prints
// it, or path itself when it is outside.
func relative(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return path
	}
	return rel
}
