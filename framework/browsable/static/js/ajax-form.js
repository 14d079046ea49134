// drf.ajaxForms makes the page's forms (form.send) send their request with
// fetch, with the CSRF header of window.drf (csrf.js), and show the answer
// in place of the one the page was rendered with. The request's URL,
// Accept header and HTML form type are the data-url, data-accept and
// data-form-type attributes of #page.
(function () {
  "use strict";
  // Headers of the connection and of the site's middleware, left out as
  // the page leaves them out of the answer it was rendered with.
  var transportHeaders = ["content-length", "date", "referrer-policy", "x-content-type-options", "x-frame-options", "cross-origin-opener-policy"];
  function headerName(name) {
    return name.replace(/(^|-)([a-z])/g, function (all, dash, letter) { return dash + letter.toUpperCase(); });
  }
  function bold(text) {
    var b = document.createElement("b");
    b.textContent = text;
    return b;
  }
  function pretty(text) {
    try {
      return JSON.stringify(JSON.parse(text), null, 4);
    } catch (e) {
      return text;
    }
  }
  // linked appends text to el, with the quoted http(s) URLs as links.
  function linked(el, text) {
    var url = /"(https?:\/\/[^"\\\s]+)"/g, last = 0, m;
    while ((m = url.exec(text)) !== null) {
      el.append(text.slice(last, m.index + 1));
      var a = document.createElement("a");
      a.href = m[1];
      a.rel = "nofollow";
      a.textContent = m[1];
      el.append(a);
      last = m.index + 1 + m[1].length;
    }
    el.append(text.slice(last));
  }
  function show(page, method, res, text) {
    var response = document.getElementById("response");
    response.replaceChildren(bold("HTTP " + res.status + " " + res.statusText), "\n");
    res.headers.forEach(function (value, name) {
      if (!transportHeaders.includes(name)) {
        response.append(bold(headerName(name) + ":"), " " + value + "\n");
      }
    });
    response.append("\n");
    linked(response, pretty(text));
    document.getElementById("request").replaceChildren(bold(method), " " + page.dataset.url);
    var controls = document.getElementById("controls");
    if (controls) {
      controls.remove();
    }
  }
  window.drf.ajaxForms = function () {
    var page = document.getElementById("page");
    document.querySelectorAll("form.send").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var method = event.submitter ? event.submitter.value : "POST";
        var init = {method: method, credentials: "same-origin", headers: {"Accept": page.dataset.accept}};
        if (window.drf.csrfHeaderName) {
          init.headers[window.drf.csrfHeaderName] = window.drf.csrfToken;
        }
        if (form.classList.contains("raw")) {
          init.headers["Content-Type"] = form.elements["content-type"].value;
          init.body = form.elements.content.value;
        } else if (form.classList.contains("html")) {
          var data = new FormData(form);
          if (page.dataset.formType === "multipart/form-data") {
            init.body = data;
          } else {
            init.headers["Content-Type"] = page.dataset.formType;
            init.body = new URLSearchParams(data);
          }
        }
        fetch(page.dataset.url, init).then(function (res) {
          return res.text().then(function (text) { show(page, method, res, text); });
        }).catch(function (err) {
          document.getElementById("response").textContent = String(err);
        });
      });
    });
  };
}());
