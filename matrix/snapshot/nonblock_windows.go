package snapshot

const nonBlock = 0
