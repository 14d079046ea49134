// Package mediatype gives the media types of the files the framework
// embeds (the browsable API's style sheet and scripts, the documentation
// pages' assets) by their extension, as mime.TypeByExtension gives them,
// without calling it: its first call loads the system's MIME database
// (/usr/share/mime/globs2, some ten thousand entries), which then stays in
// the heap for the life of the process, and the garbage collector scans it
// on every cycle.
package mediatype

// Of returns the media type of a file whose extension is ext (".css"),
// "" for an extension that no embedded file has.
func Of(ext string) string {
	switch ext {
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".txt":
		return "text/plain; charset=utf-8"
	}
	return ""
}
