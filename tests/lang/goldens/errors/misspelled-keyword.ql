selec * frm foo
