# Answers the browser's native file dialog on an X display (Xvfb), as a person would: waits for a
# mapped dialog window (_NET_WM_WINDOW_TYPE_DIALOG), gives it the keyboard, and either types a full
# path into its name field and presses its Save button, or presses Escape (Cancel). Prints JSON
# {"ok", "title"}. Uses only libX11 and libXtst (XTEST), which Chromium itself needs, through
# ctypes: no xdotool. Used by test/site/save-file.test.ts and bench/browser-save-file.ts.
#
#   DISPLAY=:N python3 x11-dialog.py '{"action": "save", "path": "/tmp/x/a.bin", "timeout": 60}'
#   DISPLAY=:N python3 x11-dialog.py '{"action": "cancel"}'
import ctypes, json, sys, time

spec = json.loads(sys.argv[1])
x = ctypes.cdll.LoadLibrary('libX11.so.6')
xt = ctypes.cdll.LoadLibrary('libXtst.so.6')
Display, Window, Atom = ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong
x.XOpenDisplay.restype = Display
x.XOpenDisplay.argtypes = [ctypes.c_char_p]
x.XDefaultRootWindow.restype = Window
x.XDefaultRootWindow.argtypes = [Display]
x.XQueryTree.argtypes = [Display, Window, ctypes.POINTER(Window), ctypes.POINTER(Window),
                         ctypes.POINTER(ctypes.POINTER(Window)), ctypes.POINTER(ctypes.c_uint)]
x.XFetchName.argtypes = [Display, Window, ctypes.POINTER(ctypes.c_char_p)]
x.XInternAtom.restype = Atom
x.XInternAtom.argtypes = [Display, ctypes.c_char_p, ctypes.c_int]
x.XGetWindowProperty.argtypes = [Display, Window, Atom, ctypes.c_long, ctypes.c_long, ctypes.c_int, Atom,
                                 ctypes.POINTER(Atom), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_ulong),
                                 ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.POINTER(ctypes.c_ubyte))]
x.XSetInputFocus.argtypes = [Display, Window, ctypes.c_int, ctypes.c_ulong]
x.XRaiseWindow.argtypes = [Display, Window]
x.XSync.argtypes = [Display, ctypes.c_int]
x.XStringToKeysym.restype = ctypes.c_ulong
x.XStringToKeysym.argtypes = [ctypes.c_char_p]
x.XKeysymToKeycode.restype = ctypes.c_ubyte
x.XKeysymToKeycode.argtypes = [Display, ctypes.c_ulong]
x.XKeycodeToKeysym.restype = ctypes.c_ulong
x.XKeycodeToKeysym.argtypes = [Display, ctypes.c_ubyte, ctypes.c_int]
x.XTranslateCoordinates.argtypes = [Display, Window, Window, ctypes.c_int, ctypes.c_int,
                                    ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(Window)]
x.XGetGeometry.argtypes = [Display, Window, ctypes.POINTER(Window), ctypes.POINTER(ctypes.c_int),
                           ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint),
                           ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]
xt.XTestFakeKeyEvent.argtypes = [Display, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
xt.XTestFakeMotionEvent.argtypes = [Display, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]
xt.XTestFakeButtonEvent.argtypes = [Display, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]

d = x.XOpenDisplay(None)
if not d:
    print(json.dumps({'ok': False, 'error': 'cannot open the X display'}))
    sys.exit(1)
root = x.XDefaultRootWindow(d)
# Windows come and go while they are looked at (the browser's menus, tooltips): an X error about one
# that is gone must not end this script, as libX11's default handler would.
ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda _d, _e: 0)
x.XSetErrorHandler.argtypes = [ctypes.c_void_p]
x.XSetErrorHandler(ERROR_HANDLER)
WINDOW_TYPE = x.XInternAtom(d, b'_NET_WM_WINDOW_TYPE', 0)
DIALOG = x.XInternAtom(d, b'_NET_WM_WINDOW_TYPE_DIALOG', 0)


def children(w):
    r, p, n = Window(), Window(), ctypes.c_uint()
    ch = ctypes.POINTER(Window)()
    x.XQueryTree(d, w, ctypes.byref(r), ctypes.byref(p), ctypes.byref(ch), ctypes.byref(n))
    return [ch[i] for i in range(n.value)]


def title(w):
    s = ctypes.c_char_p()
    x.XFetchName(d, w, ctypes.byref(s))
    return s.value.decode('utf-8', 'replace') if s.value else ''


def is_dialog(w):
    kind, fmt, n, left = Atom(), ctypes.c_int(), ctypes.c_ulong(), ctypes.c_ulong()
    data = ctypes.POINTER(ctypes.c_ubyte)()
    if x.XGetWindowProperty(d, w, WINDOW_TYPE, 0, 16, 0, 4, ctypes.byref(kind), ctypes.byref(fmt), ctypes.byref(n),
                            ctypes.byref(left), ctypes.byref(data)) != 0 or n.value == 0:
        return False
    atoms = ctypes.cast(data, ctypes.POINTER(ctypes.c_ulong))
    return any(atoms[i] == DIALOG for i in range(n.value))


def geometry(w):
    r, px, py = Window(), ctypes.c_int(), ctypes.c_int()
    width, height, border, depth = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    x.XGetGeometry(d, w, ctypes.byref(r), ctypes.byref(px), ctypes.byref(py), ctypes.byref(width),
                   ctypes.byref(height), ctypes.byref(border), ctypes.byref(depth))
    ax, ay, child = ctypes.c_int(), ctypes.c_int(), Window()
    x.XTranslateCoordinates(d, w, root, 0, 0, ctypes.byref(ax), ctypes.byref(ay), ctypes.byref(child))
    return ax.value, ay.value, width.value, height.value


def dialogs():
    return [w for w in children(root) if is_dialog(w) and geometry(w)[2] > 100]


def key(name, shift=False, ctrl=False):
    sym = x.XStringToKeysym(name.encode())
    code = x.XKeysymToKeycode(d, sym)
    mods = ([x.XKeysymToKeycode(d, x.XStringToKeysym(b'Shift_L'))] if shift else []) + \
           ([x.XKeysymToKeycode(d, x.XStringToKeysym(b'Control_L'))] if ctrl else [])
    for m in mods:
        xt.XTestFakeKeyEvent(d, m, 1, 0)
    xt.XTestFakeKeyEvent(d, code, 1, 0)
    xt.XTestFakeKeyEvent(d, code, 0, 0)
    for m in reversed(mods):
        xt.XTestFakeKeyEvent(d, m, 0, 0)
    x.XSync(d, 0)
    time.sleep(0.01)


KEYSYMS = {'/': 'slash', '.': 'period', '-': 'minus', '_': 'underscore', ' ': 'space', '(': 'parenleft',
           ')': 'parenright', '+': 'plus', ',': 'comma'}


def type_text(text):
    for c in text:
        name = KEYSYMS.get(c, c)
        sym = x.XStringToKeysym(name.encode())
        code = x.XKeysymToKeycode(d, sym)
        if not sym or not code:
            raise SystemExit(json.dumps({'ok': False, 'error': 'cannot type %r' % c}))
        key(name, shift=x.XKeycodeToKeysym(d, code, 0) != sym)


def click(px, py):
    xt.XTestFakeMotionEvent(d, -1, px, py, 0)
    x.XSync(d, 0)
    time.sleep(0.2)
    xt.XTestFakeButtonEvent(d, 1, 1, 0)
    x.XSync(d, 0)
    time.sleep(0.05)
    xt.XTestFakeButtonEvent(d, 1, 0, 0)
    x.XSync(d, 0)


deadline = time.time() + float(spec.get('timeout', 60))
found = []
while not found:
    if time.time() > deadline:
        print(json.dumps({'ok': False, 'error': 'no file dialog appeared'}))
        sys.exit(1)
    time.sleep(0.2)
    found = dialogs()
win = found[0]
name = title(win)
# Without a window manager nothing gives the new dialog the keyboard: give it, as a desktop would.
time.sleep(0.5)
x.XRaiseWindow(d, win)
x.XSetInputFocus(d, win, 1, 0)
x.XSync(d, 0)
time.sleep(0.5)
if spec['action'] == 'cancel':
    key('Escape')
else:
    key('a', ctrl=True)
    type_text(spec['path'])
    time.sleep(0.5)
    # GTK's Save button sits in the dialog's bottom right corner; Return in the name field opens its
    # completion instead of saving.
    left, top, width, height = geometry(win)
    click(left + width - 45, top + height - 22)
while win in dialogs():
    if time.time() > deadline:
        print(json.dumps({'ok': False, 'error': 'the file dialog stayed open', 'title': name}))
        sys.exit(1)
    time.sleep(0.2)
print(json.dumps({'ok': True, 'title': name}))
