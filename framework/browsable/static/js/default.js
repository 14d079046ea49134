// The tabs of the edit forms: "HTML form" and "Raw data".
(function () {
  "use strict";
  document.querySelectorAll(".tabs").forEach(function (tabs) {
    tabs.addEventListener("click", function (event) {
      var tab = event.target.closest("[role=tab]");
      if (!tab) {
        return;
      }
      tabs.querySelectorAll("[role=tab]").forEach(function (t) {
        var on = t === tab;
        t.setAttribute("aria-selected", on ? "true" : "false");
        document.getElementById(t.getAttribute("aria-controls")).hidden = !on;
      });
    });
  });
}());
