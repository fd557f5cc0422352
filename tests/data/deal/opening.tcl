source /usr/share/deal/format/none
shapefunc opening {
  if {$s>=5 && $s>=$h} {return spades}
  if {$h>=5} {return hearts}
  if {$d>=4 && $d>$c} {return diamonds}
  return clubs
}
set n 0
main {
  incr n
  if {[hcp north]>=12} {
    set o [opening north]
    if {[info exists one($o)]} {incr one($o)} {set one($o) 1}
  }
  set k "[opening north]/[opening south]"
  if {[info exists two($k)]} {incr two($k)} {set two($k) 1}
  accept
}
deal_finished {
  foreach k [lsort [array names one]] { puts "one $k $one($k)" }
  foreach k [lsort [array names two]] { puts "two $k $two($k)" }
  puts "n $n"
}
