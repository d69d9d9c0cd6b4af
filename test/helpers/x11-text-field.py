# A real X client with a text field (Tk Entry), for the dictate-anywhere test: it takes the focus and writes its
# content to the file named on the command line every time it changes.
import sys, tkinter
out = sys.argv[1]
root = tkinter.Tk()
root.title('voxdesk-test-field')
value = tkinter.StringVar()
def save(*_):
    with open(out, 'w') as f:
        f.write(value.get())
value.trace_add('write', save)
entry = tkinter.Entry(root, textvariable=value, width=80)
entry.pack()
root.after(100, lambda: (root.focus_force(), entry.focus_set(), open(out + '.ready', 'w').close()))
root.mainloop()
