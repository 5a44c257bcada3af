module github.com/omnimessage/omnimessage/go

go 1.22
