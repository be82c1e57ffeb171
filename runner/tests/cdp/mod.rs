//! A small Chrome DevTools Protocol client for browser tests: headless Chromium started with
//! `--remote-debugging-pipe` (JSON messages ending in a NUL byte on file descriptors 3 and 4,
//! so no WebSocket library is needed), one page target attached in flat session mode.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub struct Browser {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next_id: u64,
    session: String,
    /// Every event received so far, in order.
    pub events: Vec<Value>,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Chromium binary on `PATH`, if any.
pub fn chromium() -> Option<std::path::PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join(name))
                    .find(|p| p.is_file())
            })
        })
}

impl Browser {
    /// Starts headless Chromium with a fresh profile and opens one blank page.
    pub fn launch(binary: &Path, profile: &Path) -> Browser {
        // The shell moves the pipes onto fds 3 (commands in) and 4 (replies out).
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$@\" 3<&0 4>&1 0</dev/null 1>/dev/null")
            .arg(binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--remote-debugging-pipe",
                "--allow-file-access-from-files",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let mut b = Browser {
            child,
            input,
            output,
            next_id: 0,
            session: String::new(),
            events: Vec::new(),
        };
        let target = b.call_on(None, "Target.createTarget", json!({"url": "about:blank"}));
        let id = target["targetId"].as_str().expect("targetId").to_string();
        let attached = b.call_on(
            None,
            "Target.attachToTarget",
            json!({"targetId": id, "flatten": true}),
        );
        b.session = attached["sessionId"]
            .as_str()
            .expect("sessionId")
            .to_string();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            b.call(domain, json!({}));
        }
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1280, "height": 1400, "deviceScaleFactor": 1, "mobile": false}),
        );
        b
    }

    fn read_message(&mut self) -> Value {
        let mut buf = Vec::new();
        let n = self
            .output
            .read_until(0, &mut buf)
            .expect("read from chromium");
        assert!(n > 0, "chromium closed the DevTools pipe");
        buf.pop();
        serde_json::from_slice(&buf).expect("DevTools message is JSON")
    }

    fn call_on(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.input.write_all(&bytes).expect("write to chromium");
        self.input.flush().unwrap();
        loop {
            let m = self.read_message();
            if m["id"].as_u64() == Some(id) {
                if let Some(e) = m.get("error") {
                    panic!("{method} failed: {e}");
                }
                return m["result"].clone();
            }
            if m.get("method").is_some() {
                self.events.push(m);
            }
        }
    }

    /// A command on the page's session.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.call_on(Some(&session), method, params)
    }

    /// Waits for an event named `method` received after event number `since`.
    pub fn wait_event(&mut self, method: &str, since: usize) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        if let Some(e) = self.events[since..].iter().find(|e| e["method"] == method) {
            return e.clone();
        }
        while Instant::now() < deadline {
            let m = self.read_message();
            if m.get("method").is_some() {
                self.events.push(m.clone());
                if m["method"] == method {
                    return m;
                }
            }
        }
        panic!("no {method} event within 30 s");
    }

    /// Loads `url` and waits for its load event.
    pub fn navigate(&mut self, url: &str) {
        let since = self.events.len();
        self.call("Page.navigate", json!({"url": url}));
        self.wait_event("Page.loadEventFired", since);
    }

    /// Runs `action` (which follows a link) and waits for the next page's load event.
    pub fn follow(&mut self, action: &str) {
        let since = self.events.len();
        self.eval(action);
        self.wait_event("Page.loadEventFired", since);
    }

    /// Evaluates a JavaScript expression and returns its value (JSON).
    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("script failed: {expression}\n{e}");
        }
        r["result"]["value"].clone()
    }

    /// A PNG of the page.
    pub fn screenshot(&mut self) -> Vec<u8> {
        let r = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": false}),
        );
        base64_decode(r["data"].as_str().expect("screenshot data"))
    }

    /// Console errors, uncaught exceptions and failed loads seen so far.
    pub fn errors(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e["method"].as_str()? {
                "Runtime.consoleAPICalled" if e["params"]["type"] == "error" => {
                    Some(format!("console.error: {}", e["params"]["args"]))
                }
                "Runtime.exceptionThrown" => {
                    Some(format!("exception: {}", e["params"]["exceptionDetails"]))
                }
                "Log.entryAdded" if e["params"]["entry"]["level"] == "error" => Some(format!(
                    "log: {} {}",
                    e["params"]["entry"]["text"], e["params"]["entry"]["url"]
                )),
                _ => None,
            })
            .collect()
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let clean: Vec<u8> = text.bytes().filter(|c| *c != b'=' && *c != b'\n').collect();
    for chunk in clean.chunks(4) {
        let mut acc = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            acc |= value(*c) << (18 - 6 * i);
        }
        let bytes = acc.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}
