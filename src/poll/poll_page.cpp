// The students' page: large touch targets, readable on a phone in sunlight or in the dark, one
// form. The script asks /state every two seconds and shows "waiting" between questions; it
// writes text with textContent only. Without the script the server draws the state, and a
// waiting page reloads itself every five seconds.
#include "poll/poll_page.h"

#include <nlohmann/json.hpp>

#include "poll/student_text.h"

namespace ts {
namespace {

const char kStyle[] = R"CSS(
*{box-sizing:border-box}
body{margin:0 auto;max-width:30em;padding:16px;font:19px/1.45 system-ui,-apple-system,
"Segoe UI",Roboto,sans-serif;background:#fafafa;color:#111}
h1{font-size:1.35em;margin:.2em 0 .6em}
label{display:block;margin:16px 0 6px;font-weight:600}
input{width:100%;font-size:22px;padding:12px;border:2px solid #666;border-radius:10px;
background:#fff;color:#111}
input:focus{outline:3px solid #1a5fb4;outline-offset:1px}
button{width:100%;min-height:58px;margin-top:20px;font-size:22px;font-weight:600;border:0;
border-radius:10px;background:#1a5fb4;color:#fff}
button:disabled{opacity:.6}
.msg{padding:12px 14px;border-radius:10px;margin:12px 0}
.ok{background:#dff3e4;color:#0b3d1b}.bad{background:#fbe3e1;color:#5c1010}
.wait{padding:18px 14px;border-radius:10px;background:#e8eef8;color:#1b2a44;font-size:1.1em}
a{color:#1a5fb4}
[hidden]{display:none!important}
@media (prefers-color-scheme:dark){body{background:#121212;color:#eee}
input{background:#1e1e1e;color:#eee;border-color:#999}
.ok{background:#163d22;color:#dff3e4}.bad{background:#4a1715;color:#fbe3e1}
.wait{background:#1d2940;color:#e8eef8}a{color:#8ab4f8}}
)CSS";

// The page's behaviour with the script: poll the state, show the form while a question is open,
// send guesses without leaving the page.
const char kScript[] = R"JS(
(function(){
  var f=document.getElementById('f'),msg=document.getElementById('msg'),
      wait=document.getElementById('wait'),ask=document.getElementById('ask'),
      code=document.getElementById('code'),name=document.getElementById('name'),
      guess=document.getElementById('guess'),send=document.getElementById('send'),
      question=-1,timer=0;
  try{if(!name.value)name.value=localStorage.getItem('poll-name')||'';}catch(e){}
  function say(text,ok){msg.textContent=text;msg.className='msg '+(ok?'ok':'bad');
    msg.hidden=!text;}
  function show(open){wait.hidden=open;ask.hidden=!open;}
  function later(ms){clearTimeout(timer);timer=setTimeout(check,ms);}
  function check(){
    if(!/^[0-9]{4}$/.test(code.value)){show(true);later(2000);return;}
    fetch('/state?code='+code.value,{headers:{'Accept':'application/json'},cache:'no-store'})
    .then(function(r){return r.json().then(function(j){return {s:r.status,j:j};});})
    .then(function(x){
      if(x.s!==200){say(x.j.error||'Try again.',false);show(true);later(5000);return;}
      if(x.j.open&&x.j.question!==question){if(question!==-1){guess.value='';say('',true);}
        question=x.j.question;}
      if(!x.j.open&&question!==-1&&msg.className.indexOf('ok')>=0)say('',true);
      show(x.j.open);later(document.hidden?6000:2000);})
    .catch(function(){later(5000);});
  }
  f.addEventListener('submit',function(ev){
    ev.preventDefault();
    try{localStorage.setItem('poll-name',name.value);}catch(e){}
    send.disabled=true;
    var body='code='+encodeURIComponent(code.value)+'&name='+encodeURIComponent(name.value)+
             '&guess='+encodeURIComponent(guess.value);
    fetch('/guess',{method:'POST',body:body,cache:'no-store',headers:{'Accept':'application/json',
      'Content-Type':'application/x-www-form-urlencoded'}})
    .then(function(r){return r.json();})
    .then(function(j){say(j.message||'Try again.',!!j.ok);})
    .catch(function(){say('Could not reach the teacher\u2019s computer. Try again.',false);})
    .then(function(){send.disabled=false;later(500);});
  });
  check();
})();
)JS";

}  // namespace

std::string page_security_policy(std::string_view nonce) {
  const std::string n(nonce);
  return "default-src 'none'; style-src 'nonce-" + n + "'; script-src 'nonce-" + n +
         "'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
}

std::string render_poll_page(const PageView& v) {
  const bool open = v.question.open;
  const std::string code = html_escape(v.code), name = html_escape(v.name);
  const std::string nonce = html_escape(v.nonce);
  std::string h;
  h.reserve(6000);
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  h += "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n";
  h += "<title>Class poll: guess the next token</title>\n";
  h += "<style nonce=\"" + nonce + "\">" + kStyle + "</style>\n";
  if (!open && v.code.size() == 4)  // without the script, a waiting page looks again by itself
    h += "<noscript><meta http-equiv=\"refresh\" content=\"5;url=/?code=" + code +
         (v.name.empty() ? "" : "&amp;name=" + html_escape(url_encode(v.name))) +
         "\"></noscript>\n";
  h += "</head><body>\n<h1>Guess the next token</h1>\n";
  h += "<p id=\"msg\" class=\"msg " + std::string(v.message_ok ? "ok" : "bad") +
       "\" role=\"status\"" + (v.message.empty() ? " hidden>" : ">") + html_escape(v.message) +
       "</p>\n";
  h += "<p id=\"wait\" class=\"wait\"" + std::string(open ? " hidden" : "") +
       ">Waiting for the next question&hellip;</p>\n";
  h += "<form id=\"f\" method=\"post\" action=\"/guess\" accept-charset=\"UTF-8\" "
       "autocomplete=\"off\">\n";
  h += "<label for=\"code\">Class code</label><input id=\"code\" name=\"code\" "
       "inputmode=\"numeric\" pattern=\"[0-9]{4}\" maxlength=\"4\" required value=\"" +
       code + "\">\n";
  h += "<label for=\"name\">Your name</label><input id=\"name\" name=\"name\" maxlength=\"" +
       std::to_string(v.max_name_chars) + "\" required autocomplete=\"nickname\" value=\"" + name +
       "\">\n";
  h += "<div id=\"ask\"" + std::string(open ? "" : " hidden") + ">\n";
  h += "<label for=\"guess\">Your guess for the next token</label><input id=\"guess\" "
       "name=\"guess\" maxlength=\"" +
       std::to_string(v.max_guess_chars) +
       "\" required autocapitalize=\"off\" autocorrect=\"off\" spellcheck=\"false\" "
       "enterkeyhint=\"send\">\n";
  h += "<button id=\"send\" type=\"submit\">Send my guess</button>\n</div>\n</form>\n";
  if (!open) h += "<noscript><p><a href=\"/?code=" + code + "\">Look again</a></p></noscript>\n";
  h += "<script nonce=\"" + nonce + "\">" + kScript + "</script>\n</body></html>\n";
  return h;
}

std::string state_json(const PollQuestion& q) {
  return nlohmann::json{{"open", q.open}, {"step", q.step}, {"question", q.question}}.dump();
}

std::string error_json(std::string_view message) {
  return nlohmann::json{{"ok", false}, {"error", std::string(message)}}.dump();
}

std::string guess_json(GuessResult r, const PollQuestion& q) {
  return nlohmann::json{
      {"ok", guess_counted(r)}, {"message", guess_result_message(r)}, {"question", q.question}}
      .dump();
}

std::string url_encode(std::string_view s) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '.' || c == '_' || c == '~';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace ts
