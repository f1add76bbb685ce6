package tournament

import "slices"

// This file is a maximum-weight matching of a general graph: Edmonds'
// blossom algorithm in its primal-dual form (Edmonds 1965; the O(n³)
// organisation of Gabow 1976 and Galil, "Efficient algorithms for finding
// maximum matching in graphs", ACM Computing Surveys 18(1), 1986). Swiss
// pairing needs it: a greedy pass can paint itself into a corner (the last
// two players have met) where a matching finds the pairing that avoids it.
//
// Weights are integers. They are doubled inside, so that every dual
// variable and every delta stays an integer.

// wedge is an undirected edge between vertices i and j of weight w.
type wedge struct {
	i, j int
	w    int64
}

// matcher is the state of one run. Vertices are 0..n-1; blossoms n..2n-1.
// Edge k has endpoints 2k (vertex i) and 2k+1 (vertex j); p^1 is the other
// end of endpoint p.
type matcher struct {
	n         int
	edges     []wedge // endpoint p of edge p/2 is m.end(p)
	neighbend [][]int // per vertex: remote endpoints of its edges
	mate      []int   // per vertex: remote endpoint of its matched edge, -1
	label     []int   // per vertex/blossom: 0 free, 1 S, 2 T (5: scan mark)
	labelend  []int   // endpoint through which the label was given
	inblossom []int   // per vertex: its top-level blossom
	parent    []int
	childs    [][]int
	base      []int
	endps     [][]int
	bestedge  []int
	bestlist  [][]int
	unused    []int
	dual      []int64
	allowed   []bool
	queue     []int
	bestto    []int // addBlossom's scratch, all -1 between calls
	touched   []int
}

// maxWeightMatching returns, for each vertex, its partner in a matching of
// maximum total weight (-1: unmatched). Edges of weight ≤ 0 are ignored.
// edges is left as it was.
func maxWeightMatching(n int, edges []wedge) []int {
	return matchOwned(nil, n, append([]wedge(nil), edges...))
}

// matchBuf lends matchOwned and swissEdges the arrays whose size is the
// number of edges, from one matching to the next (issue 24: a windowed
// draw of 10,000 entrants made fresh ones for each of its windows, ~100 MB
// of a 5,000-game START's allocations). What one matching leaves in them
// is never read by the next: each is cleared or written before it is read.
type matchBuf struct {
	edges   []wedge
	back    []int
	deg     []int
	allowed []bool
}

// grown returns s with length n, reusing its array when it is large
// enough.
func grown[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// end is the vertex at endpoint p: edge p/2's i when p is even, its j
// when odd.
func (m *matcher) end(p int) int {
	e := &m.edges[p>>1]
	if p&1 == 0 {
		return e.i
	}
	return e.j
}

// matchOwned is maxWeightMatching on edges it may change (the Swiss draw's,
// built for one matching): its weights are doubled in place rather than
// copied (issue 24: the copy was a quarter of a 5,000-entrant draw's
// allocations). buf, when not nil, lends the arrays whose size is the
// number of edges (a windowed draw's matchings, one after the other:
// matchBuf); the matching returned is the caller's own.
func matchOwned(buf *matchBuf, n int, edges []wedge) []int {
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	es := edges[:0]
	var maxw int64
	for _, e := range edges {
		if e.w <= 0 || e.i == e.j {
			continue
		}
		es = append(es, wedge{e.i, e.j, 2 * e.w})
		if 2*e.w > maxw {
			maxw = 2 * e.w
		}
	}
	if len(es) == 0 {
		return mate
	}
	if buf == nil {
		buf = &matchBuf{}
	}
	m := &matcher{n: n, edges: es}
	// Every vertex's remote endpoints, cut from one backing array.
	deg := grown(buf.deg, n)
	clear(deg)
	for _, e := range es {
		deg[e.i]++
		deg[e.j]++
	}
	back := grown(buf.back, 2*len(es))
	m.neighbend = make([][]int, n)
	for v, at := 0, 0; v < n; v++ {
		m.neighbend[v] = back[at : at : at+deg[v]]
		at += deg[v]
	}
	for k, e := range es {
		m.neighbend[e.i] = append(m.neighbend[e.i], 2*k+1)
		m.neighbend[e.j] = append(m.neighbend[e.j], 2*k)
	}
	buf.deg, buf.back = deg, back
	m.mate = make([]int, n)
	m.inblossom = make([]int, n)
	for v := 0; v < n; v++ {
		m.mate[v] = -1
		m.inblossom[v] = v
	}
	m.label = make([]int, 2*n)
	m.labelend = make([]int, 2*n)
	m.parent = make([]int, 2*n)
	m.childs = make([][]int, 2*n)
	m.base = make([]int, 2*n)
	m.endps = make([][]int, 2*n)
	m.bestedge = make([]int, 2*n)
	m.bestlist = make([][]int, 2*n)
	m.dual = make([]int64, 2*n)
	for b := 0; b < 2*n; b++ {
		m.parent[b] = -1
		m.labelend[b] = -1
		m.bestedge[b] = -1
		if b < n {
			m.base[b] = b
			m.dual[b] = maxw
		} else {
			m.base[b] = -1
			m.unused = append(m.unused, b)
		}
	}
	m.allowed = grown(buf.allowed, len(es)) // cleared at every stage (run)
	buf.allowed = m.allowed
	m.run()
	for v := 0; v < n; v++ {
		if m.mate[v] >= 0 {
			mate[v] = m.end(m.mate[v])
		}
	}
	return mate
}

func (m *matcher) slack(k int) int64 {
	e := m.edges[k]
	return m.dual[e.i] + m.dual[e.j] - 2*e.w
}

// leaves calls fn for every vertex inside blossom b.
func (m *matcher) leaves(b int, fn func(v int)) {
	if b < m.n {
		fn(b)
		return
	}
	for _, c := range m.childs[b] {
		m.leaves(c, fn)
	}
}

// at indexes a blossom's cycle with Python-style negative indices.
func at(xs []int, j int) int {
	l := len(xs)
	return xs[((j%l)+l)%l]
}

// assignLabel labels vertex w's top-level blossom t (1 S, 2 T), reached
// through endpoint p; a T-blossom's mate becomes S.
func (m *matcher) assignLabel(w, t, p int) {
	b := m.inblossom[w]
	m.label[w], m.label[b] = t, t
	m.labelend[w], m.labelend[b] = p, p
	m.bestedge[w], m.bestedge[b] = -1, -1
	if t == 1 {
		m.leaves(b, func(v int) { m.queue = append(m.queue, v) })
		return
	}
	base := m.base[b]
	mp := m.mate[base]
	m.assignLabel(m.end(mp), 1, mp^1)
}

// scanBlossom traces the alternating trees up from v and w: it returns the
// base of the new blossom where they meet, or -1 for an augmenting path.
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inblossom[v]
		if m.label[b]&4 != 0 {
			base = m.base[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelend[b] == -1 {
			v = -1
		} else {
			v = m.end(m.labelend[b])
			b = m.inblossom[v]
			v = m.end(m.labelend[b])
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

// addBlossom makes a new S-blossom of the cycle closed by edge k, with the
// given base.
func (m *matcher) addBlossom(base, k int) {
	v, w := m.edges[k].i, m.edges[k].j
	bb := m.inblossom[base]
	bv, bw := m.inblossom[v], m.inblossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.base[b] = base
	m.parent[b] = -1
	m.parent[bb] = b
	var path, endps []int
	for bv != bb {
		m.parent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelend[bv])
		v = m.end(m.labelend[bv])
		bv = m.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.parent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelend[bw]^1)
		w = m.end(m.labelend[bw])
		bw = m.inblossom[w]
	}
	m.childs[b], m.endps[b] = path, endps
	m.label[b] = 1
	m.labelend[b] = m.labelend[bb]
	m.dual[b] = 0
	m.leaves(b, func(v int) {
		if m.label[m.inblossom[v]] == 2 {
			m.queue = append(m.queue, v)
		}
		m.inblossom[v] = b
	})
	// The least-slack edges from the new blossom to each other S-blossom
	// (a scratch array kept at -1 between calls; touched lists the
	// blossoms set, visited in increasing order as a full scan would).
	if m.bestto == nil {
		m.bestto = make([]int, 2*m.n)
		for i := range m.bestto {
			m.bestto[i] = -1
		}
	}
	bestto := m.bestto
	touched := m.touched[:0]
	consider := func(k int) {
		i, j := m.edges[k].i, m.edges[k].j
		if m.inblossom[j] == b {
			i, j = j, i
		}
		_ = i
		bj := m.inblossom[j]
		if bj != b && m.label[bj] == 1 && (bestto[bj] == -1 || m.slack(k) < m.slack(bestto[bj])) {
			if bestto[bj] == -1 {
				touched = append(touched, bj)
			}
			bestto[bj] = k
		}
	}
	for _, c := range path {
		if m.bestlist[c] == nil {
			m.leaves(c, func(v int) {
				for _, p := range m.neighbend[v] {
					consider(p / 2)
				}
			})
		} else {
			for _, k := range m.bestlist[c] {
				consider(k)
			}
		}
		m.bestlist[c] = nil
		m.bestedge[c] = -1
	}
	var list []int
	m.bestedge[b] = -1
	slices.Sort(touched)
	for _, bj := range touched {
		k := bestto[bj]
		bestto[bj] = -1
		list = append(list, k)
		if m.bestedge[b] == -1 || m.slack(k) < m.slack(m.bestedge[b]) {
			m.bestedge[b] = k
		}
	}
	m.touched = touched
	m.bestlist[b] = list
}

// expandBlossom undoes blossom b; during a stage a T-blossom's children are
// relabelled along the path that reached it.
func (m *matcher) expandBlossom(b int, endstage bool) {
	for _, s := range m.childs[b] {
		m.parent[s] = -1
		switch {
		case s < m.n:
			m.inblossom[s] = s
		case endstage && m.dual[s] == 0:
			m.expandBlossom(s, endstage)
		default:
			m.leaves(s, func(v int) { m.inblossom[v] = s })
		}
	}
	if !endstage && m.label[b] == 2 {
		ch, ep := m.childs[b], m.endps[b]
		entry := m.inblossom[m.end(m.labelend[b]^1)]
		j := index(ch, entry)
		var jstep, trick int
		if j&1 != 0 {
			j -= len(ch)
			jstep, trick = 1, 0
		} else {
			jstep, trick = -1, 1
		}
		p := m.labelend[b]
		for j != 0 {
			m.label[m.end(p^1)] = 0
			m.label[m.end(at(ep, j-trick)^trick^1)] = 0
			m.assignLabel(m.end(p^1), 2, p)
			m.allowed[at(ep, j-trick)/2] = true
			j += jstep
			p = at(ep, j-trick) ^ trick
			m.allowed[p/2] = true
			j += jstep
		}
		bv := at(ch, j)
		m.label[m.end(p^1)], m.label[bv] = 2, 2
		m.labelend[m.end(p^1)], m.labelend[bv] = p, p
		m.bestedge[bv] = -1
		j += jstep
		for at(ch, j) != entry {
			bv = at(ch, j)
			if m.label[bv] == 1 {
				j += jstep
				continue
			}
			found := -1
			m.leaves(bv, func(v int) {
				if found == -1 && m.label[v] != 0 {
					found = v
				}
			})
			if found != -1 {
				m.label[found] = 0
				m.label[m.end(m.mate[m.base[bv]])] = 0
				m.assignLabel(found, 2, m.labelend[found])
			}
			j += jstep
		}
	}
	m.label[b], m.labelend[b] = -1, -1
	m.childs[b], m.endps[b] = nil, nil
	m.base[b] = -1
	m.bestlist[b] = nil
	m.bestedge[b] = -1
	m.unused = append(m.unused, b)
}

// augmentBlossom swaps matched and unmatched edges inside blossom b along
// the even path from vertex v to the base; v becomes the base.
func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.parent[t] != b {
		t = m.parent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	ch, ep := m.childs[b], m.endps[b]
	i := index(ch, t)
	j := i
	var jstep, trick int
	if i&1 != 0 {
		j -= len(ch)
		jstep, trick = 1, 0
	} else {
		jstep, trick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = at(ch, j)
		p := at(ep, j-trick) ^ trick
		if t >= m.n {
			m.augmentBlossom(t, m.end(p))
		}
		j += jstep
		t = at(ch, j)
		if t >= m.n {
			m.augmentBlossom(t, m.end(p^1))
		}
		m.mate[m.end(p)] = p ^ 1
		m.mate[m.end(p^1)] = p
	}
	m.childs[b] = append(append([]int{}, ch[i:]...), ch[:i]...)
	m.endps[b] = append(append([]int{}, ep[i:]...), ep[:i]...)
	m.base[b] = m.base[m.childs[b][0]]
}

// augmentMatching flips the augmenting path through edge k.
func (m *matcher) augmentMatching(k int) {
	v, w := m.edges[k].i, m.edges[k].j
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inblossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelend[bs] == -1 {
				break
			}
			t := m.end(m.labelend[bs])
			bt := m.inblossom[t]
			s = m.end(m.labelend[bt])
			j := m.end(m.labelend[bt] ^ 1)
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelend[bt]
			p = m.labelend[bt] ^ 1
		}
	}
}

func (m *matcher) run() {
	n := m.n
	for stage := 0; stage < n; stage++ {
		for i := range m.label {
			m.label[i] = 0
			m.bestedge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			m.bestlist[b] = nil
		}
		for k := range m.allowed {
			m.allowed[k] = false
		}
		m.queue = m.queue[:0]
		for v := 0; v < n; v++ {
			if m.mate[v] == -1 && m.label[m.inblossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				for _, p := range m.neighbend[v] {
					k := p / 2
					w := m.end(p)
					if m.inblossom[v] == m.inblossom[w] {
						continue
					}
					var kslack int64
					if !m.allowed[k] {
						kslack = m.slack(k)
						if kslack <= 0 {
							m.allowed[k] = true
						}
					}
					switch {
					case m.allowed[k]:
						switch {
						case m.label[m.inblossom[w]] == 0:
							m.assignLabel(w, 2, p^1)
						case m.label[m.inblossom[w]] == 1:
							if base := m.scanBlossom(v, w); base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
							}
						case m.label[w] == 0:
							m.label[w] = 2
							m.labelend[w] = p ^ 1
						}
					case m.label[m.inblossom[w]] == 1:
						b := m.inblossom[v]
						if m.bestedge[b] == -1 || kslack < m.slack(m.bestedge[b]) {
							m.bestedge[b] = k
						}
					case m.label[w] == 0:
						if m.bestedge[w] == -1 || kslack < m.slack(m.bestedge[w]) {
							m.bestedge[w] = k
						}
					}
					if augmented {
						break
					}
				}
			}
			if augmented {
				break
			}
			// No augmenting path with tight edges: change the duals.
			deltatype, deltaedge, deltablossom := 1, -1, -1
			delta := m.dual[0]
			for v := 1; v < n; v++ {
				if m.dual[v] < delta {
					delta = m.dual[v]
				}
			}
			for v := 0; v < n; v++ {
				if m.label[m.inblossom[v]] == 0 && m.bestedge[v] != -1 {
					if d := m.slack(m.bestedge[v]); d < delta {
						delta, deltatype, deltaedge = d, 2, m.bestedge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if m.parent[b] == -1 && m.label[b] == 1 && m.bestedge[b] != -1 {
					if d := m.slack(m.bestedge[b]) / 2; d < delta {
						delta, deltatype, deltaedge = d, 3, m.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == 2 && m.dual[b] < delta {
					delta, deltatype, deltablossom = m.dual[b], 4, b
				}
			}
			for v := 0; v < n; v++ {
				switch m.label[m.inblossom[v]] {
				case 1:
					m.dual[v] -= delta
				case 2:
					m.dual[v] += delta
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 {
					switch m.label[b] {
					case 1:
						m.dual[b] += delta
					case 2:
						m.dual[b] -= delta
					}
				}
			}
			if deltatype == 1 {
				break
			}
			switch deltatype {
			case 2:
				m.allowed[deltaedge] = true
				i, j := m.edges[deltaedge].i, m.edges[deltaedge].j
				if m.label[m.inblossom[i]] == 0 {
					i, j = j, i
				}
				_ = j
				m.queue = append(m.queue, i)
			case 3:
				m.allowed[deltaedge] = true
				m.queue = append(m.queue, m.edges[deltaedge].i)
			case 4:
				m.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == 1 && m.dual[b] == 0 {
				m.expandBlossom(b, true)
			}
		}
	}
}

func reverse(xs []int) {
	for i, j := 0, len(xs)-1; i < j; i, j = i+1, j-1 {
		xs[i], xs[j] = xs[j], xs[i]
	}
}

func index(xs []int, x int) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
