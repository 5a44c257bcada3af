(function () {
  "use strict";
  var body = document.body;
  function checked(sel) {
    var out = {};
    document.querySelectorAll(sel).forEach(function (b) { if (b.checked) { out[b.value] = true; } });
    return out;
  }
  function apply() {
    var sevs = checked("input.fsev"), rules = checked("input.frule"), shown = 0;
    document.querySelectorAll(".f").forEach(function (f) {
      var on = !!sevs[f.dataset.sev] && !!rules[f.dataset.rule];
      f.classList.toggle("hidden", !on);
      if (on) { shown += 1; }
    });
    document.querySelectorAll(".row.has-f").forEach(function (r) {
      r.classList.toggle("hl", !!r.querySelector(".f:not(.hidden)"));
    });
    var only = document.getElementById("only").checked;
    body.classList.toggle("only", only);
    document.querySelectorAll("details.fold").forEach(function (d) {
      d.classList.toggle("has-hl", !!d.querySelector(".row.hl"));
    });
    document.querySelectorAll(".card, section.input").forEach(function (c) {
      c.classList.toggle("hidden", only && !c.querySelector(".row.hl"));
    });
    document.getElementById("visible").textContent = shown + " finding(s) shown";
  }
  document.querySelectorAll("input.fsev, input.frule, #only").forEach(function (b) {
    b.addEventListener("change", apply);
  });
  function all(on) {
    document.querySelectorAll("input.frule").forEach(function (b) { b.checked = on; });
    apply();
  }
  document.getElementById("all").addEventListener("click", function () { all(true); });
  document.getElementById("none").addEventListener("click", function () { all(false); });
  apply();
})();
