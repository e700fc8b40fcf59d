(function () {
  var status = "all", area = "all";
  function apply() {
    document.querySelectorAll("[data-status]").forEach(function (el) {
      if (!el.hasAttribute("data-area")) return;
      var ok = (status === "all" || el.getAttribute("data-status") === status) &&
        (area === "all" || el.getAttribute("data-area") === area);
      el.classList.toggle("hidden", !ok);
    });
    document.querySelectorAll(".area").forEach(function (sec) {
      var shown = sec.querySelectorAll(".tile:not(.hidden)").length;
      sec.classList.toggle("hidden", shown === 0);
    });
  }
  document.querySelectorAll(".filters button[data-filter-status]").forEach(function (b) {
    b.addEventListener("click", function () {
      status = b.getAttribute("data-filter-status");
      document.querySelectorAll(".filters button[data-filter-status]").forEach(function (o) {
        o.setAttribute("aria-pressed", o === b ? "true" : "false");
      });
      apply();
    });
  });
  var sel = document.getElementById("filter-area");
  if (sel) sel.addEventListener("change", function () { area = sel.value; apply(); });
  document.querySelectorAll(".repro button").forEach(function (b) {
    b.addEventListener("click", function () {
      var code = b.parentNode.querySelector("code");
      var text = code.textContent;
      function done() { b.textContent = "Copied"; setTimeout(function () { b.textContent = "Copy"; }, 1500); }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () { selectCode(code); });
      } else { selectCode(code); }
    });
  });
  function selectCode(code) {
    var r = document.createRange(); r.selectNodeContents(code);
    var s = window.getSelection(); s.removeAllRanges(); s.addRange(r);
  }
})();
