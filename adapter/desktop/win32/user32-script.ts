/**
 * The PowerShell side of the Windows window tools (win32-windows.ts): a few lines of C# over
 * user32 and dwmapi, then one answer line (ASCII JSON) per request line:
 *
 *   list                      {"windows":[{id,pid,app,title,b:[x,y,w,h]|null,fg,min,max}]}
 *   focus|minimize|maximize|restore|close ID        {"ok":true}
 *   place ID X Y W H          (each a number or "-" to keep it)   {"ok":true}
 *   a window not in the list  {"error":"NOT_FOUND"};  a failure {"error":"failed","message":...}
 *
 * The listed windows are what Alt+Tab would offer, and their dialogs: visible, titled, not tool
 * windows, not cloaked (a suspended Store app's hidden window), not the desktop or the taskbar.
 * Bounds are the visible frame (DWM's extended frame bounds), in physical pixels (the process
 * is per-monitor DPI aware); SetWindowPos places the outer rectangle, which on Windows 10 and
 * later includes invisible resize borders, so `place` adds them back. Requests that change a
 * window are posted (ShowWindowAsync, SWP_ASYNCWINDOWPOS, WM_CLOSE), so a hung app cannot hang
 * the session. The C# is C# 5: what Windows PowerShell 5.1's Add-Type compiles.
 */
export const USER32_SCRIPT = String.raw`$ErrorActionPreference = 'Stop'
Add-Type -IgnoreWarnings -TypeDefinition @'
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
public static class ChatgptMcpWindows {
  [StructLayout(LayoutKind.Sequential)] struct Rect { public int Left, Top, Right, Bottom; }
  delegate bool EnumProc(IntPtr hwnd, IntPtr data);
  [DllImport("user32.dll")] static extern bool EnumWindows(EnumProc proc, IntPtr data);
  [DllImport("user32.dll")] static extern bool IsWindowVisible(IntPtr hwnd);
  [DllImport("user32.dll")] static extern bool IsIconic(IntPtr hwnd);
  [DllImport("user32.dll")] static extern bool IsZoomed(IntPtr hwnd);
  [DllImport("user32.dll")] static extern int GetWindowLongW(IntPtr hwnd, int index);
  [DllImport("user32.dll", CharSet = CharSet.Unicode)] static extern int GetWindowTextW(IntPtr hwnd, StringBuilder text, int max);
  [DllImport("user32.dll")] static extern int GetWindowTextLengthW(IntPtr hwnd);
  [DllImport("user32.dll", CharSet = CharSet.Unicode)] static extern int GetClassNameW(IntPtr hwnd, StringBuilder name, int max);
  [DllImport("user32.dll")] static extern uint GetWindowThreadProcessId(IntPtr hwnd, out uint pid);
  [DllImport("user32.dll")] static extern IntPtr GetForegroundWindow();
  [DllImport("user32.dll")] static extern bool GetWindowRect(IntPtr hwnd, out Rect rect);
  [DllImport("dwmapi.dll")] static extern int DwmGetWindowAttribute(IntPtr hwnd, int attribute, out Rect value, int size);
  [DllImport("dwmapi.dll")] static extern int DwmGetWindowAttribute(IntPtr hwnd, int attribute, out int value, int size);
  [DllImport("user32.dll")] static extern bool ShowWindowAsync(IntPtr hwnd, int command);
  [DllImport("user32.dll")] static extern bool SetForegroundWindow(IntPtr hwnd);
  [DllImport("user32.dll")] static extern bool BringWindowToTop(IntPtr hwnd);
  [DllImport("user32.dll")] static extern bool AttachThreadInput(uint attach, uint to, bool on);
  [DllImport("kernel32.dll")] static extern uint GetCurrentThreadId();
  [DllImport("user32.dll")] static extern void keybd_event(byte key, byte scan, uint flags, UIntPtr extra);
  [DllImport("user32.dll")] static extern bool PostMessageW(IntPtr hwnd, uint message, IntPtr w, IntPtr l);
  [DllImport("user32.dll")] static extern bool SetWindowPos(IntPtr hwnd, IntPtr after, int x, int y, int width, int height, uint flags);
  [DllImport("user32.dll")] static extern bool SetProcessDpiAwarenessContext(IntPtr context);
  [DllImport("user32.dll")] static extern bool SetProcessDPIAware();

  public static void Init() {
    // Per-monitor aware (v2, Windows 10 1703 and later), else system aware: physical pixels either way.
    try { if (SetProcessDpiAwarenessContext(new IntPtr(-4))) return; } catch (EntryPointNotFoundException) { }
    SetProcessDPIAware();
  }

  public static string Quote(string s) {
    StringBuilder b = new StringBuilder("\"");
    foreach (char c in s) {
      if (c == '"' || c == '\\') b.Append('\\').Append(c);
      else if (c < ' ' || c > '~') b.Append("\\u").Append(((int)c).ToString("x4"));
      else b.Append(c);
    }
    return b.Append('"').ToString();
  }

  static bool Listed(IntPtr h) {
    if (!IsWindowVisible(h) || GetWindowTextLengthW(h) == 0) return false;
    int ex = GetWindowLongW(h, -20); // GWL_EXSTYLE
    if ((ex & 0x80) != 0 && (ex & 0x40000) == 0) return false; // WS_EX_TOOLWINDOW without WS_EX_APPWINDOW
    int cloaked;
    if (DwmGetWindowAttribute(h, 14, out cloaked, 4) == 0 && cloaked != 0) return false; // DWMWA_CLOAKED
    StringBuilder name = new StringBuilder(64);
    GetClassNameW(h, name, name.Capacity);
    string c = name.ToString();
    return c != "Progman" && c != "WorkerW" && c != "Shell_TrayWnd" && c != "Shell_SecondaryTrayWnd";
  }

  static List<IntPtr> Windows() {
    List<IntPtr> all = new List<IntPtr>();
    EnumWindows(delegate (IntPtr h, IntPtr data) { if (Listed(h)) all.Add(h); return true; }, IntPtr.Zero);
    return all;
  }

  static Rect Frame(IntPtr h) {
    Rect r;
    if (DwmGetWindowAttribute(h, 9, out r, 16) != 0) GetWindowRect(h, out r); // DWMWA_EXTENDED_FRAME_BOUNDS
    return r;
  }

  static string Flag(bool value) { return value ? "true" : "false"; }

  static string List() {
    Dictionary<int, string> names = new Dictionary<int, string>();
    foreach (Process p in Process.GetProcesses()) { try { names[p.Id] = p.ProcessName; } catch (InvalidOperationException) { } } // ended meanwhile
    IntPtr fg = GetForegroundWindow();
    List<string> items = new List<string>();
    foreach (IntPtr h in Windows()) {
      uint pid;
      GetWindowThreadProcessId(h, out pid);
      string app;
      if (!names.TryGetValue((int)pid, out app)) app = "";
      StringBuilder title = new StringBuilder(GetWindowTextLengthW(h) + 1);
      GetWindowTextW(h, title, title.Capacity);
      bool min = IsIconic(h);
      Rect r = Frame(h);
      string bounds = min ? "null" : "[" + r.Left + "," + r.Top + "," + (r.Right - r.Left) + "," + (r.Bottom - r.Top) + "]";
      items.Add("{\"id\":" + h.ToInt64() + ",\"pid\":" + pid + ",\"app\":" + Quote(app) + ",\"title\":" + Quote(title.ToString()) +
        ",\"b\":" + bounds + ",\"fg\":" + Flag(h == fg) + ",\"min\":" + Flag(min) + ",\"max\":" + Flag(!min && IsZoomed(h)) + "}");
    }
    return "{\"windows\":[" + string.Join(",", items.ToArray()) + "]}";
  }

  /** Out of minimized and maximized (SW_RESTORE brings a minimized window back to maximized first, if it was). */
  static void Restore(IntPtr h) {
    for (int i = 0; i < 2 && (IsIconic(h) || IsZoomed(h)); i++) {
      bool wasIconic = IsIconic(h);
      ShowWindowAsync(h, 9); // SW_RESTORE
      for (int waited = 0; waited < 500 && (wasIconic ? IsIconic(h) : IsZoomed(h)); waited += 20) Thread.Sleep(20);
    }
  }

  /** Windows lets the foreground app hand the foreground on: joined to its input for the call, we may take it. */
  static void Focus(IntPtr h) {
    if (IsIconic(h)) Restore(h);
    if (SetForegroundWindow(h) && GetForegroundWindow() == h) return;
    uint ignored;
    uint foreground = GetWindowThreadProcessId(GetForegroundWindow(), out ignored);
    uint me = GetCurrentThreadId();
    bool joined = foreground != 0 && foreground != me && AttachThreadInput(me, foreground, true);
    BringWindowToTop(h);
    SetForegroundWindow(h);
    if (joined) AttachThreadInput(me, foreground, false);
    if (GetForegroundWindow() == h) return;
    // Last: the foreground lock yields to the process that sent the last input. An Alt press and
    // release (no character, at most a menu bar highlighted a moment in the app losing the focus).
    keybd_event(0x12, 0, 0, UIntPtr.Zero); // VK_MENU down
    keybd_event(0x12, 0, 2, UIntPtr.Zero); // KEYEVENTF_KEYUP
    SetForegroundWindow(h);
  }

  static int Pick(string given, int current) { return given == "-" ? current : int.Parse(given); }

  static void Place(IntPtr h, string[] a) {
    Restore(h); // a maximized window keeps its size until it is restored
    Rect outer, frame = Frame(h);
    GetWindowRect(h, out outer);
    int x = Pick(a[2], frame.Left), y = Pick(a[3], frame.Top);
    int width = Pick(a[4], frame.Right - frame.Left), height = Pick(a[5], frame.Bottom - frame.Top);
    SetWindowPos(h, IntPtr.Zero, x - (frame.Left - outer.Left), y - (frame.Top - outer.Top),
      width + (frame.Left - outer.Left) + (outer.Right - frame.Right), height + (frame.Top - outer.Top) + (outer.Bottom - frame.Bottom),
      0x4 | 0x10 | 0x4000); // SWP_NOZORDER | SWP_NOACTIVATE | SWP_ASYNCWINDOWPOS
  }

  public static string Handle(string line) {
    string[] a = line.Split(' ');
    if (a[0] == "list") return List();
    long id;
    if (a.Length < 2 || !long.TryParse(a[1], out id)) return "{\"error\":\"failed\",\"message\":\"a request names a window\"}";
    IntPtr h = new IntPtr(id);
    if (!Windows().Contains(h)) return "{\"error\":\"NOT_FOUND\"}";
    switch (a[0]) {
      case "focus": Focus(h); break;
      case "minimize": ShowWindowAsync(h, 6); break; // SW_MINIMIZE
      case "maximize": ShowWindowAsync(h, 3); break; // SW_SHOWMAXIMIZED
      case "restore": Restore(h); break;
      case "close": PostMessageW(h, 0x10, IntPtr.Zero, IntPtr.Zero); break; // WM_CLOSE: the app may ask to save first
      case "place": if (a.Length < 6) return "{\"error\":\"failed\",\"message\":\"place needs x y width height\"}"; Place(h, a); break;
      default: return "{\"error\":\"failed\",\"message\":\"unknown request\"}";
    }
    return "{\"ok\":true}";
  }
}
'@
[ChatgptMcpWindows]::Init()
while ($null -ne ($line = [Console]::In.ReadLine())) {
  try { $out = [ChatgptMcpWindows]::Handle($line) }
  catch {
    $e = $_.Exception; while ($e.InnerException) { $e = $e.InnerException } # not "Exception calling Handle ..."
    $out = '{"error":"failed","message":' + [ChatgptMcpWindows]::Quote($e.Message) + '}'
  }
  [Console]::Out.WriteLine($out)
}
`;
